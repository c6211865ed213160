/**
 * What changed in the store since the renderer last looked (`Store.takeChanges()`): the keys the
 * renderer updates, once per frame.
 */

/** What changed for one terminal since the last `takeChanges()`. */
export interface TerminalChange {
  /** The view was replaced: consumers re-read it whole and ignore `appended`. */
  replaced: boolean;
  /** Text appended since, in order (only meaningful when not replaced). */
  appended: string;
}

export interface StoreChanges {
  /** The whole entry list was replaced (snapshot or clear): reconcile everything. */
  reset: boolean;
  /** Entries placed before all others (the older part of a split snapshot): the first `prepended` ids. */
  prepended: number;
  /** Ids of entries inserted, replaced or appended to. */
  entries: Set<string>;
  status: boolean;
  agents: boolean;
  follow: boolean;
  commands: boolean;
  modes: boolean;
  /** The open conversations or the shown one's tab changed. */
  tabs: boolean;
  queue: boolean;
  review: boolean;
  /** The session's settings (pickers) changed. */
  options: boolean;
  /** The context meter or the quota meter changed. */
  usage: boolean;
  /** The prompt the agent predicts (the composer's ghost text) changed. */
  suggestion: boolean;
  /** Who the agent is signed in as, or whether it can sign out. */
  account: boolean;
  /** Mention picker results or chips to add arrived; prompt capabilities changed. */
  mentions: boolean;
  /** The shown conversation's id, session id or title changed (or another one is shown). */
  conversation: boolean;
  /** The host asked to land on a prompt (Store.reveal). */
  reveal: boolean;
  /** Its worktree or review notes changed, or whether new conversations can have a worktree. */
  worktree: boolean;
  /** A message of the shown conversation was copied as Markdown (the host said so). */
  copied: boolean;
  terminals: Map<string, TerminalChange>;
}

export function emptyChanges(): StoreChanges {
  return {
    reset: false,
    prepended: 0,
    entries: new Set(),
    status: false,
    agents: false,
    follow: false,
    commands: false,
    modes: false,
    tabs: false,
    queue: false,
    review: false,
    options: false,
    usage: false,
    suggestion: false,
    account: false,
    mentions: false,
    conversation: false,
    reveal: false,
    worktree: false,
    copied: false,
    terminals: new Map(),
  };
}

/** Marks everything of the shown conversation changed (a snapshot or a switch of tab). */
export function markConversationChanged(changes: StoreChanges, terminalIds: Iterable<string>): void {
  changes.reset = true;
  changes.prepended = 0;
  changes.entries.clear();
  changes.terminals.clear();
  changes.status = changes.commands = changes.modes = changes.queue = changes.review = true;
  changes.options = changes.usage = changes.suggestion = changes.account = changes.mentions = changes.conversation = changes.worktree = true;
  for (const id of terminalIds) changes.terminals.set(id, { replaced: true, appended: '' });
}

type Flag = { [K in keyof StoreChanges]: StoreChanges[K] extends boolean ? K : never }[keyof StoreChanges];
/** The yes/no parts of a set of changes; a flag added to StoreChanges and not here fails to compile. */
const FLAGS = [
  'reset',
  'status',
  'agents',
  'follow',
  'commands',
  'modes',
  'tabs',
  'queue',
  'review',
  'options',
  'usage',
  'suggestion',
  'account',
  'mentions',
  'conversation',
  'reveal',
  'worktree',
  'copied',
] as const satisfies readonly Flag[];
const everyFlagListed: Exclude<Flag, (typeof FLAGS)[number]> extends never ? true : never = true;
void everyFlagListed;

/** True when there is anything for the renderer to do. */
export function anyChange(c: StoreChanges): boolean {
  return c.prepended > 0 || c.entries.size > 0 || c.terminals.size > 0 || FLAGS.some((flag) => c[flag]);
}
