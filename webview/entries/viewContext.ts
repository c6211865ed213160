/** What entry views share: the host channel, the store, and the terminal registry. */
import type { Entry, EntryKind } from '../../src/protocol/messages';
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

/** One rendered thread entry. `update` gets the new entry for the same id and patches the DOM. */
export interface EntryView {
  readonly kind: EntryKind;
  readonly element: HTMLElement;
  update(entry: Entry): void;
  dispose(): void;
  /** Views created with a deferred body build it here (idempotent). */
  hydrate?(): void;
}
