/**
 * The output a card shows, in the shape the tool produced it. Text the agent sent as markdown stays
 * markdown; plain text with line breaks (shell results such as `Command: …\nOutput: …`) and a text
 * that is one fenced block become preformatted output; an agent that sends no content, only
 * `rawOutput` (Cline), gets its strings, stdout/stderr, exit codes and per-item results shown the
 * same way. Text meant for the model, not the user (`<system-reminder>` and
 * `<tools-used-before-summary>` blocks, a subagent's `agentId: … <usage>…</usage>` trailer) is left out here; Details keeps the raw values.
 */
import { OUTPUT_VIEW_LIMIT_CHARS, type OutputContentView } from '../../protocol/messages';
import { isRecord } from '../../protocol/guards';
import type { ParsedToolContent } from '../diffContent';

/** Most output items made from one rawOutput. */
const MAX_OUTPUT_ITEMS = 20;
/** How deep rawOutput is searched for text. */
const MAX_DEPTH = 4;

// Bounded runs of white space around it: an unbounded `\s*` is quadratic over a long run.
const SYSTEM_REMINDER = /\s{0,200}<system-reminder>[\s\S]*?<\/system-reminder>\s{0,200}/g;
/**
 * Blocks Claude Code writes for its own model around a result: the tools a subagent used before its
 * summary (claude-agent-acp 0.101 starts the Agent result with `<tools-used-before-summary>Read…`).
 * Bounded like SYSTEM_REMINDER; an unclosed block is left as it is (it may be the user's text).
 */
const MODEL_BLOCKS = /\s{0,200}<(tools-used-before-summary)>[\s\S]{0,100000}?<\/\1>\s{0,200}/g;
const MODEL_BLOCK_SIGNS = ['<tools-used-before-summary>'];
/** Claude's Agent tool result ends with the subagent's id and usage, for the model to resume it. */
const AGENT_TRAILER = /(^|\n)agentId: [^\n]*(\n<usage>[\s\S]*?<\/usage>)?\s*$/;

/** The text without the parts meant for the model only. */
export function withoutModelText(text: string): string {
  const blocks = MODEL_BLOCK_SIGNS.some((sign) => text.includes(sign));
  if (!blocks && !text.includes('<system-reminder>') && !text.includes('agentId: ')) return text;
  const cleaned = text
    .replace(SYSTEM_REMINDER, '\n')
    // At the very start a block leaves nothing behind; between texts a line break.
    .replace(MODEL_BLOCKS, (_block: string, _name: string, at: number) => (at === 0 ? '' : '\n'))
    .replace(AGENT_TRAILER, '$1')
    .replace(/\n{3,}/g, '\n\n');
  const kept = cleaned.trimEnd();
  // What followed the text: one line break if there was any, else nothing.
  return kept + (cleaned.slice(kept.length).includes('\n') ? '\n' : '');
}

/**
 * Markdown constructs; a text with none of them and several lines is plain output. Bounded spans,
 * and only the text's start is looked at: a huge output must not cost seconds on every update.
 */
const MARKDOWN_SIGNS = /(^|\n)\s{0,3}(#{1,6}\s|[-*+]\s+\S|\d+[.)]\s+\S|>\s|```|~~~|\|.*\|)|\*\*\S|__\S|\[[^\]\n]{1,300}\]\([^)\n]{1,500}\)|`[^`\n]{1,500}`/;

/** The body of a text that is exactly one fenced code block, else undefined. */
function singleFence(text: string): string | undefined {
  const match = /^\s*(`{3,}|~{3,})[^\n`]*\n([\s\S]*?)\n?\1\s*$/.exec(text);
  if (!match || match[2].includes(match[1])) return undefined;
  return match[2];
}

function bounded(view: OutputContentView): OutputContentView {
  if (view.text.length <= OUTPUT_VIEW_LIMIT_CHARS) return view;
  return { ...view, text: view.text.slice(0, OUTPUT_VIEW_LIMIT_CHARS), truncated: true };
}

/** True when a string looks like binary data rather than text (control characters, replacement marks). */
function looksBinary(text: string): boolean {
  const sample = text.slice(0, 4096);
  let odd = 0;
  for (let i = 0; i < sample.length; i++) {
    const c = sample.charCodeAt(i);
    if ((c < 32 && c !== 9 && c !== 10 && c !== 13 && c !== 27) || c === 0xfffd) odd++;
  }
  return odd > 8 && odd > sample.length / 50;
}

function outputOf(text: string, extra: Partial<OutputContentView> = {}): OutputContentView | undefined {
  const shown = withoutModelText(text).replace(/^\n+/, '');
  if (shown.trim().length === 0) return undefined;
  if (looksBinary(shown)) return { type: 'output', text: `(${shown.length} characters of binary data, in Details)`, ...extra };
  return bounded({ type: 'output', text: shown, ...extra });
}

/**
 * A text in its shape: one fenced block or plain text with line breaks (or, with `plainIsOutput`,
 * any plain text) → output; markdown → markdown; model-only parts removed; undefined when empty.
 */
function shapeText(raw: string, plainIsOutput: boolean, extra: Partial<OutputContentView> = {}): ParsedToolContent | undefined {
  const text = withoutModelText(raw);
  if (text.trim().length === 0) return undefined;
  const fenced = singleFence(text);
  if (fenced !== undefined) return outputOf(fenced, extra);
  if (MARKDOWN_SIGNS.test(text.slice(0, OUTPUT_VIEW_LIMIT_CHARS)) && !looksBinary(text)) return { type: 'markdown', text };
  if (plainIsOutput || text.trim().includes('\n')) return outputOf(text, extra);
  return { type: 'markdown', text };
}

/**
 * The agent's content with text items in their shape: markdown stays, plain multi-line text and a
 * single fenced block become output, model-only text goes; other items pass unchanged.
 */
export function shapedContent(items: readonly ParsedToolContent[]): ParsedToolContent[] {
  const out: ParsedToolContent[] = [];
  for (const item of items) {
    if (item.type !== 'markdown') out.push(item);
    else {
      const shaped = shapeText(item.text, false);
      if (shaped) out.push(shaped.type === 'markdown' && shaped.text === item.text ? item : shaped);
    }
  }
  return out;
}

function exitCodeOf(value: Record<string, unknown>): number | undefined {
  const code = value.exitCode ?? value.exit_code ?? value.returncode ?? value.code;
  return typeof code === 'number' && Number.isInteger(code) ? code : undefined;
}

/** A string that holds a JSON object or list (Cline sends errors as `"{\"error\":…}"`). */
function parsedJson(text: string): unknown {
  const t = text.trim();
  if (!/^[[{]/.test(t) || t.length > 1_000_000) return undefined;
  try {
    return JSON.parse(t) as unknown;
  } catch {
    return undefined;
  }
}

function collect(value: unknown, label: string | undefined, depth: number, out: ParsedToolContent[]): void {
  if (out.length >= MAX_OUTPUT_ITEMS || depth > MAX_DEPTH) return;
  if (typeof value === 'string') {
    const json = parsedJson(value);
    if (json !== undefined && depth < MAX_DEPTH) return collect(json, label, depth + 1, out);
    const view = shapeText(value, true, label === undefined ? {} : { label });
    if (view) out.push(view);
    return;
  }
  if (Array.isArray(value)) {
    for (const item of value.slice(0, MAX_OUTPUT_ITEMS)) collect(item, label, depth + 1, out);
    return;
  }
  if (!isRecord(value)) return;
  // A content block (`{type:'text', text}`), as Claude's adapters put in rawOutput.
  if (value.type === 'text' && typeof value.text === 'string') return collect(value.text, label, depth + 1, out);
  const itemLabel = typeof value.query === 'string' ? value.query : typeof value.path === 'string' ? value.path : label;
  const failed = value.success === false || (typeof value.error === 'string' && value.result === undefined && value.output === undefined);
  const exitCode = exitCodeOf(value);
  const before = out.length;
  for (const [field, stream] of [
    ['stdout', 'stdout'],
    ['stderr', 'stderr'],
  ] as const) {
    if (typeof value[field] === 'string' && value[field].length > 0) {
      const view = outputOf(value[field], { ...(itemLabel ? { label: itemLabel } : {}), stream });
      if (view) out.push(view);
    }
  }
  if (out.length === before) {
    for (const field of ['result', 'output', 'text', 'content', 'error', 'message']) {
      const found = value[field];
      if (found === undefined || found === null) continue;
      collect(found, itemLabel, depth + 1, out);
      if (out.length > before) break;
    }
  }
  for (let i = before; i < out.length; i++) {
    const item = out[i];
    if (item.type !== 'output') continue;
    if (failed) out[i] = { ...item, failed: true };
    if (exitCode !== undefined && i === out.length - 1) out[i] = { ...(out[i] as OutputContentView), exitCode };
  }
}

/** Output items for a call that sent no content, from its rawOutput (any shape); empty when none. */
export function outputFromRaw(rawOutput: unknown, shown: (path: string) => string): ParsedToolContent[] {
  const out: ParsedToolContent[] = [];
  collect(rawOutput, undefined, 0, out);
  // Labels that are paths are shown in the user's words; a single item needs no label.
  return out.map((view, _i, all) => {
    if (view.type !== 'output' || view.label === undefined) return view;
    if (all.length === 1 && view.stream === undefined) {
      const { label: _label, ...rest } = view;
      return rest;
    }
    return { ...view, label: shown(view.label.replace(/^[a-z]+:(?=\/)/, '')) };
  });
}
