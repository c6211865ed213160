/** What entry views share: the host channel, the store, and the terminal registry. */
import type { ColdSections } from './coldSections';
import type { NestedCards } from './nestedCards';
import type { Store } from '../store/store';
import type { TerminalRegistry } from '../terminal/terminalView';
import type { Host } from '../core/vscodeApi';

export interface ViewContext {
  host: Host;
  store: Store;
  terminals: TerminalRegistry;
  /** Where streamed markdown far above the visible end waits to be laid out (markdownStream.ts). */
  cold?: ColdSections;
  /** Subagents' entries, shown inside their parents' cards (set by the thread). */
  nested?: NestedCards;
}

// EntryView lives on its own side (entryView.ts) so nestedCards.ts takes it without importing this file back; re-exported for the entry views.
export type { EntryView } from './entryView';
