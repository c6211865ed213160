import { SANDBOX_READ_REFUSED, type ReplayTerminalMeta } from '../protocol/replayWire';
import { isJsonRpcId as isId, jsonRpcShape } from './jsonRpcShape';
import {
  describeStep,
  describeWire,
  idKey,
  recordedTerminals,
  Volatiles,
  type ExpectStep,
  type JsonRpcId,
  type RecordedTerminal,
  type ReplayScript,
} from './replayScript';

/** Longest pause kept from the recording between two agent messages (a slow model, a long tool). */
export const MAX_GAP_MS = 10_000;
/** The JSON-RPC error the replay answers with once it stopped (outside the range Tandem reads as sign-in). */
export const REPLAY_ERROR_CODE = -32099;

export type ReplayAction =
  /** Send this (after waiting `delayMs`, the recorded pacing). */
  | { type: 'send'; msg: Record<string, unknown>; delayMs: number }
  /** Nothing to do until the client sends something. */
  | { type: 'wait' };

export interface ReplayOutput {
  /** An immediate answer to the client (outside the recording: errors, tolerated requests). */
  reply(msg: Record<string, unknown>): void;
  /** A line for the agent's stderr (Tandem shows it in its log and with errors). */
  note(text: string): void;
}

/**
 * Plays an agent's side of a recording against a live client. Client messages are matched to the
 * recording by method and order (a run of consecutive client messages may arrive in any order),
 * never by id or content: the live client numbers its requests itself, and the user types other
 * prompts. Recorded answers go out under the live request's id, with the live session ids and
 * working folder in place of the recorded ones. When the client sends something the recording
 * does not have at that point, the replay says where (stderr, and a JSON-RPC error answering the
 * request) and stops: every later request gets the same error, nothing more is sent.
 */
export class Replayer {
  private index = 0;
  private readonly inbox: Array<Record<string, unknown>> = [];
  /** Steps of the current run of expectations already met. */
  private readonly met = new Set<number>();
  private readonly ids = new Map<string, JsonRpcId>();
  private readonly volatiles = new Volatiles();
  private lastAt: number | undefined;
  private stopped: { reason: string } | undefined;
  private endNoted = false;
  private readonly terminals: Map<string, RecordedTerminal>;
  /** Ids of the agent's recorded requests that were not sent: the client's recorded answers to them are not awaited. */
  private readonly unsent = new Set<string>();
  private readsNoted = false;

  /**
   * A transcript is data, and may come from anyone: every message goes out only through `release`
   * (JSON-RPC 2.0, checked once), and each `terminal/create` carries the recorded output for
   * Tandem's replay sandbox, which shows it instead of running anything.
   */
  constructor(
    private readonly script: ReplayScript,
    private readonly out: ReplayOutput,
    private readonly pace: 'recorded' | 'fast' = 'recorded',
  ) {
    this.terminals = recordedTerminals(script.steps);
  }

  /** True once the recording is played to its end. */
  get finished(): boolean {
    return this.index >= this.script.steps.length;
  }

  /** Why the replay stopped early, if it did. */
  get divergence(): string | undefined {
    return this.stopped?.reason;
  }

  receive(msg: Record<string, unknown>): void {
    this.inbox.push(msg);
  }

  next(): ReplayAction {
    for (;;) {
      if (this.stopped || this.finished) {
        this.answerOutside();
        return { type: 'wait' };
      }
      const step = this.script.steps[this.index];
      if (step.kind === 'send') {
        this.index++;
        const delayMs = this.pace === 'fast' || this.lastAt === undefined ? 0 : Math.min(MAX_GAP_MS, Math.max(0, step.at - this.lastAt));
        this.lastAt = step.at;
        const outgoing = this.outgoing(step.msg, step.line);
        const msg = outgoing && this.release(outgoing, step.line);
        if (msg) return { type: 'send', msg, delayMs };
        if (typeof step.msg.method === 'string' && isId(step.msg.id)) this.unsent.add(idKey(step.msg.id));
        continue;
      }
      if (this.unanswerable(step)) {
        this.index++;
        continue;
      }
      const incoming = this.inbox.shift();
      if (!incoming) return { type: 'wait' };
      this.match(incoming);
    }
  }

  /**
   * The one gate of everything this replay sends: a message that is not well-formed JSON-RPC 2.0
   * is said on stderr with its line, and not sent.
   */
  private release(msg: Record<string, unknown>, line: number | undefined): Record<string, unknown> | undefined {
    const shape = jsonRpcShape(msg);
    if (!('problem' in shape)) return msg;
    this.out.note(`Replay: ${line === undefined ? 'an answer' : `line ${line}`} is not a valid JSON-RPC 2.0 message (${shape.problem}); not sent.`);
    return undefined;
  }

  private reply(msg: Record<string, unknown>): void {
    const checked = this.release(msg, undefined);
    if (checked) this.out.reply(checked);
  }

  /** The recorded message as it goes out now; undefined when it answers a request never matched. */
  private outgoing(recorded: Record<string, unknown>, line: number): Record<string, unknown> | undefined {
    const msg = this.volatiles.apply(recorded);
    // Keyed on the method alone, whatever the id: the sandbox shows this output, nothing is run.
    if (msg.method === 'terminal/create') return this.recordedTerminal(msg);
    if (typeof msg.method === 'string' || !isId(msg.id)) return msg;
    const live = this.ids.get(idKey(msg.id));
    if (live === undefined) {
      this.out.note(`Replay: line ${line} answers request ${JSON.stringify(msg.id)}, which the recording does not contain (it starts after it); not sent.`);
      return undefined;
    }
    return { ...msg, id: live };
  }

  /** `terminal/create` with the recorded output and exit code, without the recorded env and cwd. */
  private recordedTerminal(msg: Record<string, unknown>): Record<string, unknown> {
    const params = typeof msg.params === 'object' && msg.params !== null && !Array.isArray(msg.params) ? (msg.params as Record<string, unknown>) : {};
    const { env: _e, cwd: _c, _meta, ...rest } = params;
    const recorded = isId(msg.id) ? this.terminals.get(idKey(msg.id)) : undefined;
    const replay: ReplayTerminalMeta = { output: recorded?.output ?? '', exitCode: recorded?.exitCode ?? 0 };
    const meta = typeof _meta === 'object' && _meta !== null && !Array.isArray(_meta) ? _meta : {};
    return { ...msg, params: { ...rest, _meta: { ...meta, tandem: { replay } } } };
  }

  /** A recorded answer of the client's that cannot come: to a request not sent, or with no usable id. */
  private unanswerable(step: ExpectStep): boolean {
    return step.what === 'response' && (step.id === undefined || this.unsent.has(idKey(step.id)));
  }

  /** Matches one client message against the current run of expectations, or stops. */
  private match(msg: Record<string, unknown>): void {
    const run = this.currentRun();
    const found = run.find(({ i, step }) => !this.met.has(i) && matches(step, msg));
    if (!found) {
      if (this.tolerate(msg)) return;
      const expected = run.filter(({ i }) => !this.met.has(i));
      const first = expected[0].step;
      this.stop(
        msg,
        `Replay diverged at line ${first.line} of the transcript: the recording expects the client to send ${expected.map(({ step }) => describeStep(step)).join(' or ')}, but it sent ${describeWire(msg)}.`,
      );
      return;
    }
    const { i, step } = found;
    this.met.add(i);
    this.lastAt = Math.max(this.lastAt ?? step.at, step.at);
    if (step.what === 'request' && isId(msg.id) && step.id !== undefined) {
      this.ids.set(idKey(step.id), msg.id);
      this.volatiles.learn(step.recorded, msg);
    }
    if (step.what === 'response') {
      this.compareAnswer(step, msg);
      // A terminal the live client created has its own id: later messages use that one.
      const recordedId = (step.recorded.result as { terminalId?: unknown } | undefined)?.terminalId;
      const liveId = (msg.result as { terminalId?: unknown } | undefined)?.terminalId;
      if (typeof recordedId === 'string' && typeof liveId === 'string') this.volatiles.alias(recordedId, liveId);
    }
    if (run.every(({ i: k }) => this.met.has(k))) {
      this.index = run[run.length - 1].i + 1;
      this.met.clear();
    }
  }

  /** The expectations from the current step up to the next message the agent sends. */
  private currentRun(): Array<{ i: number; step: ExpectStep }> {
    const run: Array<{ i: number; step: ExpectStep }> = [];
    for (let i = this.index; i < this.script.steps.length; i++) {
      const step = this.script.steps[i];
      if (step.kind !== 'expect') break;
      if (!this.unanswerable(step)) run.push({ i, step });
    }
    return run;
  }

  /** Client messages that may come at any time without the replay stopping. */
  private tolerate(msg: Record<string, unknown>): boolean {
    if (msg.method === '$/cancel_request' || (msg.method === 'session/cancel' && msg.id === undefined)) {
      this.out.note(`Replay: the client sent ${String(msg.method)}, which the recording does not have here; ignored.`);
      return true;
    }
    if (msg.method === 'session/close' && isId(msg.id)) {
      this.reply({ jsonrpc: '2.0', id: msg.id, result: {} });
      return true;
    }
    return false;
  }

  /** The client answered the agent differently from the recording: worth a note, not a stop. */
  private compareAnswer(step: ExpectStep, msg: Record<string, unknown>): void {
    const recordedError = step.recorded.error !== undefined;
    const liveError = msg.error !== undefined;
    const reason = (msg.error as { data?: { reason?: unknown } } | undefined)?.data?.reason;
    if (reason === SANDBOX_READ_REFUSED) {
      // Expected in every replay that reads: said once, not once per read.
      if (!this.readsNoted)
        this.out.note('Replay: Tandem does not serve file reads to a replay (your files stay out of it); the recording goes on as recorded.');
      this.readsNoted = true;
      return;
    }
    if (reason === 'rejectedByUser') {
      this.out.note(
        `Replay: a recorded file write was rejected (its recorded answer is line ${step.line}); the file was not changed, and the replay goes on as recorded.`,
      );
      return;
    }
    if (recordedError !== liveError) {
      this.out.note(
        `Replay: the client answered request ${JSON.stringify(step.id)} with ${liveError ? 'an error' : 'a result'} where the recording (line ${step.line}) has ${recordedError ? 'an error' : 'a result'}; the replay goes on as recorded.`,
      );
      return;
    }
    const option = (m: Record<string, unknown>): unknown => (m.result as { outcome?: { optionId?: unknown } } | undefined)?.outcome?.optionId;
    if (option(step.recorded) !== option(msg)) {
      this.out.note(
        `Replay: the client chose ${JSON.stringify(option(msg))} where the recording (line ${step.line}) chose ${JSON.stringify(option(step.recorded))}; the replay goes on as recorded.`,
      );
    }
  }

  private stop(msg: Record<string, unknown>, reason: string): void {
    this.stopped = { reason };
    this.out.note(reason);
    this.out.note('Replay: stopped. Every further request is answered with this error; start a new conversation to replay again.');
    this.inbox.unshift(msg);
    this.answerOutside();
  }

  /** After the end or a stop: requests get an error (session/close its empty answer), notifications nothing. */
  private answerOutside(): void {
    if (this.finished && !this.stopped && !this.endNoted) {
      this.endNoted = true;
      this.out.note(`Replay: the recording is played to its end (${this.script.steps.length} messages).`);
    }
    for (let msg = this.inbox.shift(); msg; msg = this.inbox.shift()) {
      if (!isId(msg.id) || typeof msg.method !== 'string') continue;
      if (msg.method === 'session/close') {
        this.reply({ jsonrpc: '2.0', id: msg.id, result: {} });
        continue;
      }
      const message = this.stopped?.reason ?? `The recording ends here: it has no answer to ${msg.method}.`;
      this.reply({ jsonrpc: '2.0', id: msg.id, error: { code: REPLAY_ERROR_CODE, message, data: { replay: this.stopped ? 'diverged' : 'ended' } } });
    }
  }
}

function matches(step: ExpectStep, msg: Record<string, unknown>): boolean {
  const method = typeof msg.method === 'string' ? msg.method : undefined;
  switch (step.what) {
    case 'request':
      return method === step.method && isId(msg.id);
    case 'notification':
      return method === step.method && msg.id === undefined;
    case 'response':
      return method === undefined && isId(msg.id) && step.id !== undefined && idKey(msg.id) === idKey(step.id);
  }
}
