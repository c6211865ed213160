/**
 * The VS Code webview API and the UI-only state kept with `setState` (drafts, chips, scroll, expanded
 * rows), so hiding and showing the view loses nothing. Session data itself always comes from the host.
 * Drafts, chips and expanded rows are kept per conversation: entry ids repeat across conversations.
 */
import type { MentionChip, WebviewMessage } from '../../src/protocol/messages';
import { isScoped } from '../../src/protocol/messages';

export interface UiState {
  /** Unsent composer text, by conversation id. */
  drafts: Record<string, string>;
  /** The composer's chips, by conversation id (pasted media only within PERSISTED_MEDIA_CHARS). */
  chips: Record<string, MentionChip[]>;
  /** Scroll offset of the thread, and whether it was pinned to the bottom. */
  scrollTop: number;
  atBottom: boolean;
  /** Expanded/collapsed state chosen by the user, keyed `${conversationId}/${entryId}:${part}`. */
  expanded: Record<string, boolean>;
  /** The conversation shown last: its draft is back at once after a reload, before the snapshot. */
  shown: string;
}

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

/**
 * Base64 characters of pasted media kept in the state, over all conversations (about 1.5 MB of
 * image). The whole state is written on every keystroke of a draft, so a few pasted screenshots must
 * not make typing slow: media beyond this stays in the composer until a reload, then is gone.
 */
export const PERSISTED_MEDIA_CHARS = 2 * 1024 * 1024;

function mediaChars(chip: MentionChip): number {
  const spec = chip.spec;
  return (spec.kind === 'image' || spec.kind === 'audio') && typeof spec.data === 'string' ? spec.data.length : 0;
}

function isChipLike(value: unknown): value is MentionChip {
  if (typeof value !== 'object' || value === null) return false;
  const { spec, view } = value as Partial<MentionChip>;
  return (
    typeof spec === 'object' && spec !== null && typeof spec.kind === 'string' && typeof view === 'object' && view !== null && typeof view.label === 'string'
  );
}

function loadChips(saved: unknown): Record<string, MentionChip[]> {
  const chips: Record<string, MentionChip[]> = {};
  if (typeof saved !== 'object' || saved === null) return chips;
  for (const [id, list] of Object.entries(saved)) {
    if (!Array.isArray(list)) continue;
    const valid = list.filter(isChipLike);
    if (valid.length > 0) chips[id] = valid;
  }
  return chips;
}

function loadState(saved: unknown): UiState {
  const fresh: UiState = { drafts: {}, chips: {}, scrollTop: 0, atBottom: true, expanded: {}, shown: '' };
  if (typeof saved !== 'object' || saved === null) return fresh;
  const v = saved as Partial<UiState> & { draft?: unknown };
  const drafts: Record<string, string> = {};
  if (typeof v.drafts === 'object' && v.drafts !== null) {
    for (const [id, text] of Object.entries(v.drafts)) if (typeof text === 'string') drafts[id] = text;
  }
  return {
    drafts,
    chips: loadChips(v.chips),
    scrollTop: typeof v.scrollTop === 'number' ? v.scrollTop : 0,
    atBottom: v.atBottom !== false,
    expanded: typeof v.expanded === 'object' && v.expanded !== null ? v.expanded : {},
    shown: typeof v.shown === 'string' ? v.shown : '',
  };
}

/** Typed wrapper: posts only `WebviewMessage`s and persists `UiState` (writes coalesced). */
export class Host {
  private readonly api: VsCodeApi;
  readonly ui: UiState;
  private scopeValue: string;
  private saveTimer: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    this.api = acquireVsCodeApi();
    this.ui = loadState(this.api.getState());
    this.scopeValue = this.ui.shown;
  }

  /** The conversation the panel shows: commands and UI state belong to it. */
  get scope(): string {
    return this.scopeValue;
  }

  set scope(id: string) {
    if (id === this.scopeValue) return;
    this.scopeValue = id;
    this.ui.shown = id;
    this.save();
  }

  post(message: WebviewMessage): void {
    // Commands about one conversation carry its id: the shown one, unless the caller named another.
    if (isScoped(message.type) && !('conversationId' in message && message.conversationId)) {
      this.api.postMessage({ ...message, conversationId: this.scope });
      return;
    }
    this.api.postMessage(message);
  }

  get draft(): string {
    return this.ui.drafts[this.scope] ?? '';
  }

  set draft(text: string) {
    if (text === '') delete this.ui.drafts[this.scope];
    else this.ui.drafts[this.scope] = text;
  }

  /** The shown conversation's chips as last persisted (media over the budget left out). */
  get chips(): MentionChip[] {
    return this.ui.chips[this.scope] ?? [];
  }

  /**
   * Keeps the shown conversation's chips. Media is kept while the budget lasts, this conversation's
   * first (it was just edited), then what other conversations kept; the rest stays in memory only.
   */
  set chips(chips: readonly MentionChip[]) {
    let budget = PERSISTED_MEDIA_CHARS;
    const fit = (list: readonly MentionChip[]): MentionChip[] =>
      list.filter((chip) => {
        const size = mediaChars(chip);
        if (size > budget) return false;
        budget -= size;
        return true;
      });
    const own = fit(chips);
    delete this.ui.chips[this.scope];
    for (const [id, list] of Object.entries(this.ui.chips)) {
      const kept = fit(list);
      if (kept.length > 0) this.ui.chips[id] = kept;
      else delete this.ui.chips[id];
    }
    if (own.length > 0) this.ui.chips[this.scope] = own;
  }

  /** Persists UI state soon; several changes in a row cost one write. */
  save(): void {
    if (this.saveTimer !== undefined) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      this.saveNow();
    }, 100);
  }

  saveNow(): void {
    this.api.setState(this.ui);
  }

  /** The user's choice for a collapsible part of an entry of the shown conversation. */
  expanded(key: string): boolean | undefined {
    return this.ui.expanded[`${this.scope}/${key}`];
  }

  setExpanded(key: string, open: boolean): void {
    this.ui.expanded[`${this.scope}/${key}`] = open;
    this.save();
  }
}
