/**
 * The VS Code webview API and the UI-only state kept with `setState` (draft, scroll, expanded rows),
 * so hiding and showing the view loses nothing. Session data itself always comes from the host.
 */
import type { WebviewMessage } from '../src/protocol/messages';

export interface UiState {
  draft: string;
  /** Scroll offset of the thread, and whether it was pinned to the bottom. */
  scrollTop: number;
  atBottom: boolean;
  /** Expanded/collapsed state chosen by the user, keyed `${entryId}:${part}`. */
  expanded: Record<string, boolean>;
}

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

function isUiState(value: unknown): value is UiState {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Partial<UiState>;
  return typeof v.draft === 'string' && typeof v.scrollTop === 'number' && typeof v.expanded === 'object';
}

/** Typed wrapper: posts only `WebviewMessage`s and persists `UiState` (writes coalesced). */
export class Host {
  private readonly api: VsCodeApi;
  readonly ui: UiState;
  private saveTimer: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    this.api = acquireVsCodeApi();
    const saved = this.api.getState();
    this.ui = isUiState(saved)
      ? { ...saved, atBottom: saved.atBottom !== false }
      : { draft: '', scrollTop: 0, atBottom: true, expanded: {} };
  }

  post(message: WebviewMessage): void {
    this.api.postMessage(message);
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

  setExpanded(key: string, open: boolean): void {
    this.ui.expanded[key] = open;
    this.save();
  }
}
