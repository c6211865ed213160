import * as l10n from '@vscode/l10n';
import type * as acp from '@agentclientprotocol/sdk';
import type { QuestionEntry } from '../protocol/messages';
import type { Thread } from '../thread/thread';
import type { ConversationState } from './ports';
import { inspectUrl, parseRequestedSchema, validateAnswer } from '../thread/elicitationSchema';
import { isRecord } from '../protocol/guards';

interface Open {
  entry: QuestionEntry;
  elicitationId?: string;
  resolve: (response: acp.CreateElicitationResponse) => void;
}

/**
 * A conversation's questions from the agent (`elicitation/create`), shown in the thread. Form mode:
 * the fields, checked before Accept; Decline and Cancel always work. URL mode: the full URL and its
 * host, opened in the browser only when the user says so (never fetched by Tandem);
 * `elicitation/complete` marks it done. Stop answers every open question `cancel`.
 */
export class QuestionDesk {
  private readonly open = new Map<string, Open>();

  constructor(
    private readonly c: Pick<ConversationState, 'log' | 'flag'>,
    private readonly thread: Pick<Thread, 'addNotice' | 'addEntry' | 'replaceEntry' | 'entries'>,
    /** Opens a link in the user's browser (after their consent in the card). */
    private readonly openExternal: (url: string) => void,
  ) {}

  ask(params: acp.CreateElicitationRequest, signal: AbortSignal): Promise<acp.CreateElicitationResponse> {
    const { c, thread } = this;
    const raw = params as unknown as Record<string, unknown>;
    const message = typeof raw.message === 'string' && raw.message.trim() !== '' ? raw.message.slice(0, 4000) : l10n.t('The agent has a question.');
    let build: (id: string) => QuestionEntry;
    let elicitationId: string | undefined;
    if (raw.mode === 'url') {
      const link = inspectUrl(raw.url);
      elicitationId = typeof raw.elicitationId === 'string' ? raw.elicitationId : undefined;
      if ('problem' in link) {
        thread.addNotice('warning', link.problem);
        return Promise.resolve({ action: 'decline' });
      }
      build = (id) => ({
        kind: 'question',
        id,
        message,
        mode: 'url',
        url: link.url,
        host: link.host,
        ...(link.warning ? { hostWarning: link.warning } : {}),
        state: { kind: 'pending' },
      });
    } else if (raw.mode === 'form') {
      const parsed = parseRequestedSchema(raw.requestedSchema);
      build = (id) => ({
        kind: 'question',
        id,
        message,
        mode: 'form',
        ...('fields' in parsed ? { fields: parsed.fields } : { fields: [], unsupported: parsed.unsupported }),
        state: { kind: 'pending' },
      });
    } else {
      c.log.warn(`Declined a question of unknown mode ${JSON.stringify(raw.mode)}.`);
      return Promise.resolve({ action: 'decline' });
    }
    const entry = thread.addEntry(build);
    c.flag('permission');
    return new Promise((resolve) => {
      const item: Open = { entry, resolve };
      if (elicitationId !== undefined) {
        item.elicitationId = elicitationId;
        this.byElicitation.set(elicitationId, entry.id);
      }
      this.open.set(entry.id, item);
      signal.addEventListener('abort', () => this.settle(entry.id, 'cancel'), { once: true });
    });
  }

  /** The user answered in the card. Accept is checked first: problems go back to the card. */
  answer(entryId: string, action: 'accept' | 'decline' | 'cancel', content: unknown): void {
    const item = this.open.get(entryId);
    if (!item) return;
    if (action !== 'accept') return this.settle(entryId, action);
    if (item.entry.mode === 'url') return this.openUrl(entryId);
    if (item.entry.unsupported) return this.settle(entryId, 'decline');
    const checked = validateAnswer(item.entry.fields ?? [], content);
    if ('errors' in checked) {
      item.entry = { ...item.entry, errors: checked.errors };
      this.thread.replaceEntry(item.entry);
      return;
    }
    this.settle(entryId, 'accept', checked.content);
  }

  /** URL mode: the user consented; the browser opens it and the agent hears "accept". */
  openUrl(entryId: string): void {
    const item = this.open.get(entryId);
    if (!item?.entry.url) return;
    this.openExternal(item.entry.url);
    this.settle(entryId, 'accept');
  }

  /** `elicitation/complete`: the agent says the url-mode interaction is over. */
  complete(params: acp.CompleteElicitationNotification): void {
    const id = isRecord(params) && typeof params.elicitationId === 'string' ? params.elicitationId : undefined;
    const entryId = id === undefined ? undefined : this.byElicitation.get(id);
    if (entryId === undefined) return;
    // Still open: the agent no longer waits for it.
    if (this.open.has(entryId)) this.settle(entryId, 'cancel');
    const entry = this.thread.entries().find((e) => e.id === entryId);
    if (entry?.kind === 'question') this.thread.replaceEntry({ ...entry, state: { kind: 'completed' } });
  }

  /** Stop: every open question is answered `cancel`. */
  cancelAll(): void {
    for (const entryId of [...this.open.keys()]) this.settle(entryId, 'cancel');
  }

  /** elicitationId → entry id of url-mode questions, for `elicitation/complete`. */
  private readonly byElicitation = new Map<string, string>();

  private settle(entryId: string, action: 'accept' | 'decline' | 'cancel', content?: Record<string, unknown>): void {
    const item = this.open.get(entryId);
    if (!item) return;
    this.open.delete(entryId);
    const { errors: _errors, ...rest } = item.entry;
    this.thread.replaceEntry({ ...rest, state: { kind: 'answered', action } });
    item.resolve(action === 'accept' && content ? ({ action, content } as acp.CreateElicitationResponse) : { action });
  }
}
