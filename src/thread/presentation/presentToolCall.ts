/**
 * A card built from what the agent really did: after every merged update, the shown title, kind,
 * locations and content are derived again from what the agent sent (kept on the record) — the title
 * in the user's words, locations taken from the input when the agent sent none, output in its shape,
 * a diff from the input's old/new text or from what changed on disk when the agent sent none. The
 * one place where agents' dialects are read (see this folder); the panel renders the result.
 */
import type { LocationView, ToolCallEntry, ToolKind } from '../../protocol/messages';
import { inferToolKind } from '../../acp/toolKindInference';
import type { DiffSource, ParsedToolContent } from '../diffContent';
import type { DisplayPaths } from './displayPaths';
import { editShape, isSubagentTool, readToolInput, type ToolInputFacts } from './toolInput';
import { outputFromRaw, shapedContent } from './toolOutput';
import { presentedTitle } from './toolTitle';

/** What the agent sent of a call, as the presentation reads it. */
export interface SentToolCall {
  title?: string;
  kind: unknown;
  rawInput: unknown;
  rawOutput: unknown;
  meta: unknown;
  /** Parsed content; undefined for a restored card no update has touched since. */
  content?: ParsedToolContent[];
  /** Parsed locations; undefined when never sent. */
  locations?: LocationView[];
  /** Diffs Tandem saw on disk while the call ran (ObservedDiffs). */
  observed: DiffSource[];
  /**
   * Terminals the agent streamed output to under this call without naming them in its content
   * (codex-acp streams a read's output so): shown as if the content had named them.
   */
  terminals?: string[];
  /** A card restored from a transcript that no title or input has reached since: its title stays as stored. */
  restored?: true;
}

export interface PresentContext {
  display: DisplayPaths;
  isInWorkspace(path: string): boolean;
  /** The title of a card nobody named. */
  fallbackTitle: string;
}

/** Input facts with their paths resolved, cached per input: reading them touches the disk (isInWorkspace). */
export interface InputReading {
  rawInput: unknown;
  meta: unknown;
  title: string | undefined;
  facts: ToolInputFacts;
  /** Absolute paths of the input. */
  paths: string[];
  /** Locations from those paths inside the workspace. */
  locations: LocationView[];
}

export function readInput(sent: SentToolCall, ctx: PresentContext, previous: InputReading | undefined): InputReading {
  // Some agents (Claude's adapters) send a fresh `_meta` object with every update: compared by content.
  if (previous && previous.rawInput === sent.rawInput && previous.title === sent.title && sameMeta(previous.meta, sent.meta)) return previous;
  const facts = readToolInput(sent.rawInput, sent.meta, sent.title);
  const paths = [...new Set(facts.paths.map((p) => ctx.display.resolve(p)).filter((p): p is string => p !== undefined))];
  const locations: LocationView[] = [];
  for (const path of paths.slice(0, 20)) {
    let inWorkspace = false;
    try {
      inWorkspace = ctx.isInWorkspace(path) === true;
    } catch {
      // Treated as outside: never opened on its own.
    }
    // A folder the input names (a search's root) is not a file to open.
    if (!inWorkspace || ctx.display.shown(path) === path || ctx.display.isRoot(path)) continue;
    const line = facts.lines.get(path) ?? [...facts.lines].find(([p]) => ctx.display.resolve(p) === path)?.[1];
    locations.push(withShown({ path, inWorkspace, fromInput: true, ...(line === undefined ? {} : { line }) }, ctx.display));
  }
  return { rawInput: sent.rawInput, meta: sent.meta, title: sent.title, facts, paths, locations };
}

/** The location with its path in the user's words, when those differ from the path. */
function withShown(location: LocationView, display: DisplayPaths): LocationView {
  const shown = display.shown(location.path);
  return shown === location.path ? location : { ...location, shown };
}

/** A diff from the input's old and new text: a whole new file, or the replaced fragment. */
function inputDiff(kind: ToolKind, reading: InputReading): DiffSource | undefined {
  const edit = reading.facts.edit;
  const shape = editShape(reading.facts);
  if (kind !== 'edit' || edit === undefined || shape === undefined || reading.paths.length !== 1) return undefined;
  const create = shape === 'whole';
  if (!create && edit.oldText === edit.newText) return undefined;
  return { type: 'diff', path: reading.paths[0], oldText: create ? null : (edit.oldText ?? null), newText: edit.newText, observed: 'input' };
}

/** The content the card shows: the agent's in its shape, else its rawOutput; diffs it did not send. */
function presentedContent(sent: SentToolCall, entry: ToolCallEntry, reading: InputReading, ctx: PresentContext): ParsedToolContent[] {
  const items = shapedContent(sent.content ?? []);
  const streamed = (sent.terminals ?? []).filter((id) => !items.some((i) => i.type === 'terminal' && i.terminalId === id));
  items.unshift(...streamed.map((terminalId): ParsedToolContent => ({ type: 'terminal', terminalId })));
  const settled = entry.status === 'completed' || entry.status === 'failed';
  if (items.length === 0 && settled && sent.rawOutput !== undefined)
    items.push(...outputFromRaw(sent.rawOutput, (p) => ctx.display.shown(ctx.display.resolve(p) ?? p)));
  if (!items.some((i) => i.type === 'diff')) {
    const observed = sent.observed;
    const fromInput = observed.length === 0 && entry.status !== 'failed' && entry.status !== 'cancelled' ? inputDiff(entry.toolKind, reading) : undefined;
    items.unshift(...(observed.length > 0 ? observed : fromInput ? [fromInput] : []));
  }
  return items;
}

/**
 * Derives the shown fields of `entry` from `sent`; returns the content to show (diffs as texts,
 * undefined when a restored card's content stays as it was) and the input reading to keep.
 */
export function presentToolCall(
  entry: ToolCallEntry,
  sent: SentToolCall,
  ctx: PresentContext,
  previous: InputReading | undefined,
): { content: ParsedToolContent[] | undefined; reading: InputReading } {
  const reading = readInput(sent, ctx, previous);
  entry.toolKind = inferToolKind(sent.kind, sent.title ?? reading.facts.toolName, sent.rawInput);
  if (!sent.restored) {
    const named = namedPaths(reading, sent, ctx.display);
    const title = presentedTitle(sent.title, entry.toolKind, reading.facts, named, ctx.display, ctx.fallbackTitle);
    entry.title = title;
    if (sent.title !== undefined && sent.title.trim() !== title) entry.agentTitle = sent.title;
    else delete entry.agentTitle;
  }
  if (isSubagentTool(reading.facts.toolName)) entry.subagent = true;
  // A tool that ran on a hosted agent's server named the server's files, not this workspace's.
  const local = entry.ranOn !== 'server';
  if (sent.locations !== undefined && sent.locations.length > 0) {
    entry.locations = sent.locations.map((l) => withShown(l, ctx.display));
  } else if (local && (reading.locations.length > 0 || sent.locations !== undefined || sent.rawInput !== undefined)) {
    entry.locations = reading.locations;
  }
  const content =
    sent.content === undefined && sent.observed.length === 0 && sent.rawOutput === undefined && sent.terminals === undefined
      ? undefined
      : presentedContent(sent, entry, reading, ctx);
  return { content, reading };
}

/**
 * The files a call names, each once: its input's, its locations' and its diffs' (Codex names its
 * edits only there). One file named twice — relative in the input, absolute in the locations
 * (OpenCode) — is one path once both are resolved against the session's folder.
 */
function namedPaths(reading: InputReading, sent: SentToolCall, display: DisplayPaths): string[] {
  const diffs = (sent.content ?? []).flatMap((c) => (c.type === 'diff' ? [c.path] : []));
  const out: string[] = [];
  const seen = new Set<string>();
  for (const path of [...reading.paths, ...(sent.locations ?? []).map((l) => l.path), ...diffs]) {
    const resolved = display.resolve(path) ?? path;
    const key = display.shown(resolved);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(resolved);
  }
  return out;
}

function sameMeta(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  try {
    return JSON.stringify(a) === JSON.stringify(b);
  } catch {
    return false;
  }
}
