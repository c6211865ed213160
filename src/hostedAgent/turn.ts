/**
 * One ACP prompt turn against the hosted server: the prompt joins the kept history, the whole
 * history goes out, the answer (SSE in either dialect, or JSON) streams back as session updates
 * and into the history, approvals are asked and answered (another request in the same turn), and
 * the turn ends with its stop reason — or with an error whose partial reply is kept all the same.
 */
import * as acp from '@agentclientprotocol/sdk';
import { answerApprovals } from './approvals';
import { ReplyAssembler } from './assembler';
import type { HostedConfig } from './config';
import { noticeUpdate, stopFor, type Ending, type Notice } from './endings';
import { bodyKind, exchange, hostOf, notEventStream, readEvents, type ExchangeEnv } from './exchange';
import { failure } from './failures';
import { HttpFailure, isAbort, type HttpResponse } from './http';
import { readJsonAnswer, ToolEventsReader } from './toolEvents';
import { closeStaleApprovals, promptMessage, requestBody } from './requestBody';
import type { SessionStore, StoredSession } from './sessionStore';
import { UiStreamReader } from './uiStream';
import { messageUpdates, UpdateSink } from './updates';
import type { UIMessage, Warn } from './types';

/** Approval rounds in one turn before the bridge stops asking (a server looping on approvals). */
const MAX_ROUNDS = 25;
/** While a reply streams, the history is saved at most this often (a killed bridge keeps most of it). */
const SAVE_EVERY_MS = 2000;

export interface TurnEnv extends ExchangeEnv {
  cfg: HostedConfig;
  store: SessionStore;
  warn: Warn;
  newId(prefix: string): string;
  update(update: acp.SessionUpdate): Promise<void>;
  requestPermission(params: acp.RequestPermissionRequest): Promise<acp.RequestPermissionResponse>;
}

function skippedTools(res: HttpResponse): string[] {
  const raw = res.headers['x-tools-skipped'];
  const value = Array.isArray(raw) ? raw.join(',') : (raw ?? '');
  return value
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');
}

class Turn {
  private readonly sink: UpdateSink;
  private reply: ReplyAssembler | undefined;
  private savedAt = 0;

  constructor(
    private readonly t: TurnEnv,
    private readonly s: StoredSession,
    private readonly signal: AbortSignal,
  ) {
    this.sink = new UpdateSink((u) => t.update(u));
  }

  notice(n: Notice): void {
    this.s.notices.push({ ...n, after: this.s.messages.length - 1 });
    this.sink.push(noticeUpdate(n));
  }

  async run(prompt: readonly acp.ContentBlock[]): Promise<acp.PromptResponse> {
    closeStaleApprovals(this.s.messages);
    this.s.messages.push(promptMessage(prompt, this.t.newId('msg')));
    await this.t.store.save(this.s);
    try {
      for (let round = 0; round < MAX_ROUNDS; round++) {
        const res = await this.post();
        const skipped = skippedTools(res);
        if (skipped.length > 0) this.skippedNotice(skipped);
        const ending = await this.read(res);
        const asks = this.reply?.pendingApprovals() ?? [];
        if (ending.finishReason === 'error' && ending.errors.length === 0) ending.errors.push('The server ended the reply with an error.');
        if (ending.errors.length > 0) throw failure('serverError', `The server reported an error: ${ending.errors.join(' — ')}`, { errors: ending.errors });
        if (!ending.finished) throw new HttpFailure('connectionLost', `The connection to ${hostOf(this.t.cfg.url)} closed before the reply was complete.`);
        if (asks.length > 0) {
          await this.sink.flush();
          await this.t.store.save(this.s);
          const answered = await answerApprovals(this.s.sessionId, asks, this.s.alwaysAllow, {
            request: (p) => this.t.requestPermission(p),
            update: (u) => this.t.update(u),
          });
          if (!answered || this.signal.aborted) return { stopReason: 'cancelled' };
          continue;
        }
        this.reply?.closeOpen('The server ended its reply without a result for this call.');
        const { stopReason, notice } = stopFor(ending, 0);
        if (notice) this.notice(notice);
        return { stopReason };
      }
      throw failure('badAnswer', `The server asked for approvals ${MAX_ROUNDS} times in one turn; the bridge stopped there.`);
    } catch (err) {
      const aborted = this.signal.aborted || isAbort(err);
      this.reply?.closeOpen(aborted ? 'Stopped before the server reported a result.' : 'No result: the reply failed before this call finished.');
      if (aborted) return { stopReason: 'cancelled' };
      throw this.asRequestError(err);
    } finally {
      await this.sink.flush().catch(() => undefined);
      this.dropEmptyReply();
      await this.t.store.save(this.s);
    }
  }

  private post(): Promise<HttpResponse> {
    const cfg = this.t.cfg;
    const continuing = this.reply?.message.id;
    const body = requestBody(cfg, this.s.messages, { sessionId: this.s.sessionId, ...(continuing ? { continuing } : {}) });
    const accept = cfg.format === 'tool-events' && !cfg.stream ? 'application/json' : 'text/event-stream';
    return exchange(this.t, 'POST', cfg.url, body, this.signal, accept);
  }

  private async read(res: HttpResponse): Promise<Ending> {
    const kind = bodyKind(res);
    if (kind === 'json') return this.readJson(res);
    if (kind === 'other') throw await notEventStream(res, hostOf(this.t.cfg.url));
    const asm = this.replyAssembler();
    const newToolId = () => this.t.newId('call');
    const reader = this.t.cfg.format === 'tool-events' ? new ToolEventsReader(asm, this.t.warn, newToolId) : new UiStreamReader(asm, this.t.warn);
    await readEvents(
      res,
      (ev) => reader.handle(ev),
      reader.ending,
      this.sink,
      this.t.warn,
      () => this.saveNowAndThen(),
    );
    return reader.ending;
  }

  /** A JSON answer: its messages join the history whole and are shown as they are. */
  private async readJson(res: HttpResponse): Promise<Ending> {
    let body: unknown;
    const text = await res.text();
    try {
      body = JSON.parse(text);
    } catch {
      throw failure('badAnswer', `The server answered with JSON that does not parse (${text.length} bytes).`);
    }
    const answer = readJsonAnswer(body, this.t.warn, () => this.t.newId('call'));
    if (answer.error) throw failure('serverError', `The server reported an error: ${answer.error}`);
    for (const m of answer.messages) this.append(m);
    if (answer.skipped.length > 0) this.skippedNotice(answer.skipped);
    return { finished: true, errors: [], ...(answer.incomplete ? { incomplete: answer.incomplete } : {}) };
  }

  private append(message: UIMessage): void {
    const index = this.s.messages.push(message) - 1;
    for (const u of messageUpdates(message, index)) this.sink.push(u);
  }

  /** The streamed reply: one assistant message per turn, continued after approvals. */
  private replyAssembler(): ReplyAssembler {
    if (!this.reply) {
      const message: UIMessage = { id: this.t.newId('msg'), role: 'assistant', parts: [] };
      const index = this.s.messages.push(message) - 1;
      this.reply = new ReplyAssembler(message, index, (u) => this.sink.push(u), this.t.warn);
    }
    return this.reply;
  }

  private saveNowAndThen(): void {
    if (Date.now() - this.savedAt < SAVE_EVERY_MS) return;
    this.savedAt = Date.now();
    // Not awaited: the file queue keeps only the newest content, and the stream goes on.
    void this.t.store.save(this.s);
  }

  private skippedNotice(tools: string[]): void {
    const already = this.s.notices.some((n) => n.kind === 'toolsSkipped' && n.after === this.s.messages.length - 1);
    if (already) return;
    this.notice({
      kind: 'toolsSkipped',
      text: `The server skipped ${tools.length > 1 ? 'these tools' : 'this tool'} (its context is missing): ${tools.join(', ')}.`,
      details: { tools },
    });
  }

  private dropEmptyReply(): void {
    if (!this.reply || this.reply.hasContent) return;
    const index = this.s.messages.indexOf(this.reply.message);
    if (index < 0) return;
    this.s.messages.splice(index, 1);
    for (const n of this.s.notices) if (n.after >= index) n.after--;
  }

  private asRequestError(err: unknown): acp.RequestError {
    const kept = this.reply?.hasContent ? ' The partial reply is kept.' : '';
    if (err instanceof acp.RequestError) return kept ? new acp.RequestError(err.code, err.message + kept, err.data) : err;
    if (err instanceof HttpFailure) return failure(err.kind, err.message + kept);
    return failure('badAnswer', `The bridge failed: ${(err as Error).message ?? String(err)}${kept}`);
  }
}

export function runTurn(t: TurnEnv, s: StoredSession, prompt: readonly acp.ContentBlock[], signal: AbortSignal): Promise<acp.PromptResponse> {
  return new Turn(t, s, signal).run(prompt);
}
