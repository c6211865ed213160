import type { ConversationChange } from '../protocol/messages';
import { TerminalViews } from './terminalViews';
import { ThreadReducer, type ReducerOptions } from './threadReducer';

/**
 * One set of entries and terminal outputs: what the panel shows, or a `session/load` replay being
 * gathered out of sight. The Thread owns its views and emits for the one shown.
 */
export class ThreadView {
  readonly reducer: ThreadReducer;
  readonly terminals = new TerminalViews();

  constructor(opts: ReducerOptions) {
    this.reducer = new ThreadReducer(opts);
  }

  /** Everything the panel needs to show this view from scratch (after it replaced another). */
  restate(): ConversationChange[] {
    const changes: ConversationChange[] = [{ type: 'entriesCleared' }];
    for (const terminal of Object.values(this.terminals.all())) changes.push({ type: 'terminalChanged', terminal });
    for (const entry of this.reducer.entries()) changes.push({ type: 'entryUpserted', entry });
    return changes;
  }
}
