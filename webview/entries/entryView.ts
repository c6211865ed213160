import type { Entry, EntryKind } from '../../src/protocol/messages';

/** One rendered thread entry. `update` gets the new entry for the same id and patches the DOM. */
export interface EntryView {
  readonly kind: EntryKind;
  readonly element: HTMLElement;
  update(entry: Entry): void;
  dispose(): void;
  /** Views created with a deferred body build it here (idempotent). */
  hydrate?(): void;
}
