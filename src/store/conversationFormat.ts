import * as l10n from '@vscode/l10n';
import { isReviewNoteView, type Entry, type ReviewNoteView, type TerminalView } from '../protocol/messages';
import type { Draft } from '../protocol/draft';
import type { BranchLink, ConversationMeta, TitleSource, WorktreeBinding } from './conversationMeta';

/**
 * The on-disk shapes of saved conversations and how to read them back defensively.
 *
 * Everything read from disk is treated as untrusted: files can be truncated by a crash, edited by
 * hand, or written by another Tandem version. Readers copy known fields into fresh objects (unknown
 * fields are dropped, so they cannot leak back out on the next save) and report what they dropped.
 */

/** Tandem's own conversation ids become file names, so only this safe alphabet is accepted. */
export const CONVERSATION_ID_PATTERN = /^[A-Za-z0-9_-]{1,100}$/;

/** True when `id` can safely name a transcript file (no separators, dots or empty names). */
export function isValidConversationId(id: unknown): id is string {
  return typeof id === 'string' && CONVERSATION_ID_PATTERN.test(id);
}

/** Every conversation of one workspace, plus which are open as tabs. */
export interface ConversationIndex {
  version: 1;
  /** In the caller's order (the store keeps it). */
  conversations: ConversationMeta[];
  /** Conversations open as tabs, in tab order; never evicted. */
  openIds: string[];
  /** The tab in front, if any; never evicted. */
  activeId?: string;
}

/** What the review keeps of a conversation (see ConversationReview). */
export interface ReviewState {
  /** The review's baseline checkpoint. */
  baseline?: string;
  /** Files changed since the baseline by the agent, and during a turn by no one Tandem could name; absent: written before it told them apart. */
  claims?: { agent: string[]; outside: string[] };
}

/** What the panel showed for one conversation, bounded before it is written. */
export interface Transcript {
  version: 1;
  entries: Entry[];
  /** Terminal outputs embedded by tool call entries, by terminal id. */
  terminals: Record<string, TerminalView>;
  /** Prompts the user queued that were not sent yet. */
  queue?: Array<{ id: string; text: string }>;
  /** How many earlier entries were dropped to respect the size cap ("N earlier entries were not kept"). */
  droppedEntries?: number;
  review?: ReviewState;
  /** Review notes, sent and pending, in the order written. */
  notes?: ReviewNoteView[];
}

/** An empty index, what a new or unreadable workspace starts with. */
export function emptyIndex(): ConversationIndex {
  return { version: 1, conversations: [], openIds: [] };
}

/** A parsed file, and how many malformed parts were left out; or why the whole file is unusable. */
export type ParseResult<T> = { ok: true; value: T; dropped: number } | { ok: false; reason: string };

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;
const TITLE_SOURCES: readonly TitleSource[] = ['none', 'prompt', 'agent', 'user'];

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; reason: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (err) {
    return { ok: false, reason: l10n.t('not valid JSON ({0})', err instanceof Error ? err.message : String(err)) };
  }
}

function checkVersion(value: unknown, what: string): string | undefined {
  if (!isObject(value)) return l10n.t('not a {0}', what);
  // A different version may mean a format this build cannot read faithfully: set it aside, don't guess.
  if (value.version !== 1) return l10n.t('unsupported version {0}', String(JSON.stringify(value.version)));
  return undefined;
}

/** Reads one index record; undefined when a required field is missing or mistyped. */
function toMeta(raw: unknown): ConversationMeta | undefined {
  if (!isObject(raw)) return undefined;
  const { id, agentName, sessionId, title, titleSource, cwd, createdAt, updatedAt, worktree, branch } = raw;
  if (!isValidConversationId(id) || typeof agentName !== 'string' || typeof title !== 'string' || typeof cwd !== 'string') return undefined;
  if (typeof titleSource !== 'string' || !TITLE_SOURCES.includes(titleSource as TitleSource)) return undefined;
  if (sessionId !== undefined && typeof sessionId !== 'string') return undefined;
  if (!isTime(createdAt) || !isTime(updatedAt)) return undefined;
  const meta: ConversationMeta = { id, agentName, title, titleSource: titleSource as TitleSource, cwd, createdAt, updatedAt };
  if (sessionId !== undefined) meta.sessionId = sessionId;
  const binding = toWorktree(worktree);
  if (binding) meta.worktree = binding;
  const link = toBranch(branch);
  if (link) meta.branch = link;
  return meta;
}

/** A stored branch link; undefined when absent or damaged (the conversation then stands alone). */
function toBranch(raw: unknown): BranchLink | undefined {
  if (!isObject(raw)) return undefined;
  const { of, at, entry, shared } = raw;
  if (!isValidConversationId(of) || typeof at !== 'string' || !Array.isArray(shared) || !shared.every((s) => typeof s === 'string')) return undefined;
  const link: BranchLink = { of, at, shared: [...(shared as string[])] };
  if (typeof entry === 'string') link.entry = entry;
  return link;
}

/** A stored worktree binding; undefined when absent or damaged (the conversation then uses the folder it names as cwd). */
function toWorktree(raw: unknown): WorktreeBinding | undefined {
  if (!isObject(raw)) return undefined;
  const { path, branch, base, repo, folder, applied, provisional, gitDir } = raw;
  if (typeof path !== 'string' || typeof branch !== 'string' || typeof base !== 'string' || typeof repo !== 'string' || typeof folder !== 'string')
    return undefined;
  const binding: WorktreeBinding = { path, branch, base, repo, folder };
  if (typeof applied === 'string') binding.applied = applied;
  if (provisional === true) binding.provisional = true;
  if (typeof gitDir === 'string') binding.gitDir = gitDir;
  return binding;
}

/** Parses `conversations.json`. Malformed or duplicate records are dropped and counted; open ids must name a kept record. */
export function parseIndex(text: string): ParseResult<ConversationIndex> {
  const parsed = parseJson(text);
  if (!parsed.ok) return parsed;
  const problem = checkVersion(parsed.value, l10n.t('conversation index'));
  if (problem) return { ok: false, reason: problem };
  const raw = parsed.value as Json;
  if (!Array.isArray(raw.conversations)) return { ok: false, reason: l10n.t('no conversation list') };
  if (raw.openIds !== undefined && !Array.isArray(raw.openIds)) return { ok: false, reason: l10n.t('openIds is not a list') };

  const conversations: ConversationMeta[] = [];
  const seen = new Set<string>();
  let dropped = 0;
  for (const item of raw.conversations as unknown[]) {
    const meta = toMeta(item);
    if (!meta || seen.has(meta.id)) {
      dropped++;
      continue;
    }
    seen.add(meta.id);
    conversations.push(meta);
  }
  // Dangling tab ids are not worth a warning: they only mean a tab has nothing to show.
  const openIds = [...new Set(((raw.openIds as unknown[] | undefined) ?? []).filter((id): id is string => typeof id === 'string' && seen.has(id)))];
  const index: ConversationIndex = { version: 1, conversations, openIds };
  if (typeof raw.activeId === 'string' && seen.has(raw.activeId)) index.activeId = raw.activeId;
  return { ok: true, value: index, dropped };
}

function toTerminal(raw: unknown): TerminalView | undefined {
  if (!isObject(raw)) return undefined;
  const { terminalId, command, output, truncated, exit } = raw;
  if (typeof terminalId !== 'string' || typeof command !== 'string' || typeof output !== 'string' || typeof truncated !== 'boolean') return undefined;
  const view: Draft<TerminalView> = { terminalId, command, output, truncated };
  if (exit !== undefined) {
    if (!isObject(exit)) return undefined;
    const { exitCode, signal } = exit;
    if (!(exitCode === null || typeof exitCode === 'number') || !(signal === null || typeof signal === 'string')) return undefined;
    view.exit = exit.lost === true ? { exitCode, signal, lost: true } : { exitCode, signal };
  }
  return view;
}

/**
 * Parses a transcript file. Entries are only checked for a string `id` and `kind`: Tandem wrote
 * them itself, the `Entry` union keeps growing, and damage from a crash fails `JSON.parse` anyway.
 */
export function parseTranscript(text: string): ParseResult<Transcript> {
  const parsed = parseJson(text);
  if (!parsed.ok) return parsed;
  const problem = checkVersion(parsed.value, l10n.t('transcript'));
  if (problem) return { ok: false, reason: problem };
  const raw = parsed.value as Json;
  if (!Array.isArray(raw.entries)) return { ok: false, reason: l10n.t('no entry list') };
  if (!isObject(raw.terminals)) return { ok: false, reason: l10n.t('no terminal map') };
  if (raw.queue !== undefined && !Array.isArray(raw.queue)) return { ok: false, reason: l10n.t('queue is not a list') };

  let dropped = 0;
  const entries: Entry[] = [];
  for (const item of raw.entries as unknown[]) {
    if (isObject(item) && typeof item.id === 'string' && typeof item.kind === 'string') entries.push(item as unknown as Entry);
    else dropped++;
  }
  const terminals: Record<string, TerminalView> = {};
  for (const [key, item] of Object.entries(raw.terminals)) {
    const view = toTerminal(item);
    if (view) terminals[key] = view;
    else dropped++;
  }
  const transcript: Transcript = { version: 1, entries, terminals };
  if (raw.queue !== undefined) {
    transcript.queue = [];
    for (const item of raw.queue as unknown[]) {
      if (isObject(item) && typeof item.id === 'string' && typeof item.text === 'string') transcript.queue.push({ id: item.id, text: item.text });
      else dropped++;
    }
  }
  if (isObject(raw.review) && typeof raw.review.baseline === 'string') transcript.review = parseReview(raw.review.baseline, raw.review.claims);
  if (Array.isArray(raw.notes)) {
    transcript.notes = raw.notes.filter(isReviewNoteView);
    dropped += raw.notes.length - transcript.notes.length;
  }
  const droppedEntries = raw.droppedEntries;
  if (typeof droppedEntries === 'number' && Number.isSafeInteger(droppedEntries) && droppedEntries > 0) transcript.droppedEntries = droppedEntries;
  return { ok: true, value: transcript, dropped };
}

/**
 * Applies the cap on stored conversations: while there are more than `max`, the one least recently
 * updated is evicted, skipping those open as tabs (and the active one), which may leave the index
 * over the cap. Returns a new index (order kept) and the evicted ids.
 */
export function evictOverCap(index: ConversationIndex, max: number): { index: ConversationIndex; evicted: string[] } {
  const excess = index.conversations.length - max;
  if (excess <= 0) return { index, evicted: [] };
  const kept = new Set([...index.openIds, ...(index.activeId !== undefined ? [index.activeId] : [])]);
  const candidates = index.conversations
    .map((meta, position) => ({ meta, position }))
    .filter(({ meta }) => !kept.has(meta.id))
    // Stable on ties: created earlier first, then earlier in the list.
    .sort((a, b) => a.meta.updatedAt - b.meta.updatedAt || a.meta.createdAt - b.meta.createdAt || a.position - b.position);
  const evicted = new Set(candidates.slice(0, excess).map(({ meta }) => meta.id));
  if (evicted.size === 0) return { index, evicted: [] };
  return {
    index: { ...index, conversations: index.conversations.filter((meta) => !evicted.has(meta.id)) },
    evicted: [...evicted],
  };
}

/**
 * The tabs to open from a stored index (its open ids that exist; without any — first run, or all
 * closed — the most recent conversation) and the rest, which the history lists.
 */
export function tabsToReopen(index: ConversationIndex): { open: ConversationMeta[]; closed: ConversationMeta[] } {
  const byId = new Map(index.conversations.map((m) => [m.id, m]));
  const openIds = index.openIds.filter((id) => byId.has(id));
  if (openIds.length === 0 && index.conversations.length > 0) openIds.push([...index.conversations].sort((a, b) => b.updatedAt - a.updatedAt)[0].id);
  return { open: openIds.map((id) => byId.get(id)!), closed: index.conversations.filter((m) => !openIds.includes(m.id)) };
}

/** The index to store: every conversation (open ones first), the tabs in order, the shown one. */
export function indexOf(open: ConversationMeta[], closed: ConversationMeta[], order: readonly string[], activeId: string): ConversationIndex {
  const index: ConversationIndex = { version: 1, conversations: [...open, ...closed], openIds: [...order] };
  if (activeId) index.activeId = activeId;
  return index;
}

/**
 * The index as it is written: records with invalid ids left out (reported through `warn`), the cap
 * applied (`evicted` says which conversations went), serialised compactly — it is read by code,
 * not people.
 */
export function serialiseIndex(index: ConversationIndex, maxConversations: number, warn: (text: string) => void): { json: string; evicted: string[] } {
  const valid = index.conversations.filter((c) => isValidConversationId(c.id));
  if (valid.length < index.conversations.length)
    warn(l10n.t('Left {0} conversation(s) with invalid ids out of {1}.', index.conversations.length - valid.length, 'conversations.json'));
  const { index: capped, evicted } = evictOverCap({ ...index, conversations: valid }, maxConversations);
  const out: ConversationIndex = { version: 1, conversations: capped.conversations, openIds: capped.openIds };
  if (capped.activeId !== undefined) out.activeId = capped.activeId;
  return { json: JSON.stringify(out), evicted };
}

const isPathList = (v: unknown): v is string[] => Array.isArray(v) && v.every((p) => typeof p === 'string');

function parseReview(baseline: string, claims: unknown): ReviewState {
  if (!isObject(claims) || !isPathList(claims.agent) || !isPathList(claims.outside)) return { baseline };
  return { baseline, claims: { agent: claims.agent, outside: claims.outside } };
}
