import type { ConversationChange, Entry, UserEntry } from '../protocol/messages';
import type { BranchLink } from '../store/conversationMeta';

/**
 * The model of branches. Editing an earlier prompt makes a new conversation (a branch) that copies
 * the entries before that prompt with their ids and records where it came from (`BranchLink` in its
 * meta). So branches are ordinary stored conversations — History lists each, a switch shows one in
 * the tab of another — and every other fact is derived here, purely, from the metas:
 *
 * - a prompt is known by where it was first written, its *origin* (conversation, entry): a copied
 *   prompt is its parent's, the edited prompt of a branch is a version of the prompt it replaced;
 * - the *versions* of a prompt are its origin and every branch whose edited prompt has that origin,
 *   oldest first: the `‹ 1/2 ›` of the panel.
 */
export interface BranchNode {
  readonly id: string;
  readonly createdAt: number;
  readonly branch?: BranchLink;
}

/** One version of a prompt: the conversation it is in, and its entry there (undefined: not sent yet). */
export interface PromptVersion {
  conversation: string;
  entry: string | undefined;
}

type Nodes = ReadonlyMap<string, BranchNode>;

export function nodesOf(metas: Iterable<BranchNode>): Map<string, BranchNode> {
  return new Map([...metas].map((m) => [m.id, m]));
}

/** Where the prompt `entry` of conversation `id` was first written (bounded: a damaged index cannot loop). */
export function origin(nodes: Nodes, id: string, entry: string): { conversation: string; entry: string } {
  let at = { conversation: id, entry };
  for (let depth = 0; depth < 1000; depth++) {
    const link = nodes.get(at.conversation)?.branch;
    if (!link || !nodes.has(link.of)) return at;
    if (link.shared.includes(at.entry)) at = { conversation: link.of, entry: at.entry };
    else if (link.entry === at.entry) at = { conversation: link.of, entry: link.at };
    else return at;
  }
  return at;
}

/** The conversation whose version of the prompt `entry` conversation `id` shows: itself, or the ancestor it copied the prompt from. */
function ownVersion(nodes: Nodes, id: string, entry: string): string {
  let at = id;
  for (let depth = 0; depth < 1000; depth++) {
    const link = nodes.get(at)?.branch;
    if (!link || !nodes.has(link.of) || !link.shared.includes(entry)) return at;
    at = link.of;
  }
  return at;
}

/** Every version of the prompt `entry` of conversation `id`, oldest first (the origin leads). */
export function versions(nodes: Nodes, id: string, entry: string): PromptVersion[] {
  const root = origin(nodes, id, entry);
  const found: Array<PromptVersion & { createdAt: number }> = [];
  for (const node of nodes.values()) {
    const link = node.branch;
    if (!link || !nodes.has(link.of)) continue;
    const from = origin(nodes, link.of, link.at);
    if (from.conversation === root.conversation && from.entry === root.entry)
      found.push({ conversation: node.id, entry: link.entry, createdAt: node.createdAt });
  }
  if (found.length === 0) return [{ conversation: root.conversation, entry: root.entry }];
  found.sort((a, b) => a.createdAt - b.createdAt || a.conversation.localeCompare(b.conversation));
  return [{ conversation: root.conversation, entry: root.entry }, ...found.map(({ conversation, entry }) => ({ conversation, entry }))];
}

/**
 * The user entries of conversation `id` whose `branch` mark is not what the versions say (the
 * entries to replace): a prompt with several versions shows which it is, one with a single version
 * shows none.
 */
export function staleMarks(nodes: Nodes, id: string, entries: readonly Entry[]): UserEntry[] {
  const stale: UserEntry[] = [];
  for (const entry of entries) {
    if (entry.kind !== 'user') continue;
    const all = versions(nodes, id, entry.id);
    const own = ownVersion(nodes, id, entry.id);
    const index = all.findIndex((v) => v.conversation === own);
    const want = all.length > 1 && index >= 0 ? { index: index + 1, count: all.length } : undefined;
    if (want?.index === entry.branch?.index && want?.count === entry.branch?.count) continue;
    const next: UserEntry = { ...entry };
    if (want) next.branch = want;
    else delete next.branch;
    stale.push(next);
  }
  return stale;
}

/** The branch's edited prompt among a change batch: the first user entry not copied from its parent. */
export function editedEntryIn(link: BranchLink, changes: readonly ConversationChange[]): string | undefined {
  if (link.entry !== undefined) return undefined;
  for (const change of changes) {
    if (change.type === 'entryUpserted' && change.entry.kind === 'user' && !link.shared.includes(change.entry.id)) return change.entry.id;
  }
  return undefined;
}

/** The version `offset` places from the one of conversation `id`'s prompt `entry`; undefined: none there. */
export function versionAt(nodes: Nodes, id: string, entry: string, offset: number): PromptVersion | undefined {
  const all = versions(nodes, id, entry);
  const own = ownVersion(nodes, id, entry);
  const index = all.findIndex((v) => v.conversation === own);
  if (index < 0) return undefined;
  return all[index + offset];
}
