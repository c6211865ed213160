/**
 * Defensive conversion of untrusted ACP JSON (content blocks, tool call content, locations, plans,
 * permission options, raw values) into the view DTOs of `src/protocol/messages.ts`.
 * Nothing here throws on malformed input: bad parts are dropped and reported through `warn`.
 */
import * as l10n from '@vscode/l10n';
import type { LocationView, PermissionOptionKind, PermissionOptionView, PlanItemView, ToolContentView } from '../protocol/messages';
import { isRecord, describe, isAbsent } from '../protocol/guards';
import type { Draft } from '../protocol/draft';
import type { ParsedToolContent } from './diffContent';

export type Warn = (text: string) => void;

/** Largest rawInput/rawOutput kept as formatted JSON; bigger ones are cut with a note. */
export const RAW_JSON_LIMIT = 200 * 1024;

/** Escapes the characters that would end a markdown link label early. */
function escapeLinkLabel(text: string): string {
  return text.replace(/[\\[\]]/g, (c) => `\\${c}`);
}

/** Markdown link; the destination goes in `<…>` so spaces and parentheses in URIs keep it intact. */
export function markdownLink(label: string, uri: string): string {
  const safeUri = uri.replace(/[<>\n\r]/g, (c) => encodeURIComponent(c));
  return `[${escapeLinkLabel(label.length > 0 ? label : uri)}](<${safeUri}>)`;
}

/** Fenced block whose fence is longer than any backtick run inside the text, so it cannot be closed early. */
export function fencedText(text: string): string {
  let longest = 0;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    run = text.charCodeAt(i) === 96 ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `\n${fence}\n${text}${text.endsWith('\n') ? '' : '\n'}${fence}\n`;
}

/** Markdown for an embedded resource: its text fenced, or a link when it is binary (blob). */
function resourceMarkdown(resource: unknown, warn: Warn): string | undefined {
  if (!isRecord(resource)) {
    warn(`Ignored a resource content block without a resource (got ${describe(resource)}).`);
    return undefined;
  }
  if (typeof resource.text === 'string') return fencedText(resource.text);
  if (typeof resource.uri === 'string') return markdownLink(resource.uri, resource.uri);
  warn('Ignored a resource content block with neither text nor uri.');
  return undefined;
}

/**
 * Markdown for one ACP ContentBlock inside a message chunk: text as is, images and audio as a note,
 * resource links as links, embedded text resources fenced. Unknown or malformed blocks → undefined + warn.
 */
export function contentBlockToMarkdown(block: unknown, warn: Warn): string | undefined {
  if (!isRecord(block)) {
    warn(`Ignored a content block that is not an object (got ${describe(block)}).`);
    return undefined;
  }
  switch (block.type) {
    case 'text':
      if (typeof block.text === 'string') return block.text;
      warn(`Ignored a text content block whose text is ${describe(block.text)}.`);
      return undefined;
    case 'image':
      return '[image]';
    case 'audio':
      return '[audio]';
    case 'resource_link': {
      if (typeof block.uri !== 'string') {
        warn(`Ignored a resource_link without a uri (got ${describe(block.uri)}).`);
        return undefined;
      }
      const label = typeof block.title === 'string' ? block.title : typeof block.name === 'string' ? block.name : '';
      return markdownLink(label, block.uri);
    }
    case 'resource':
      return resourceMarkdown(block.resource, warn);
    default:
      warn(`Ignored a content block of unknown type ${describe(block.type)}.`);
      return undefined;
  }
}

/** One `{type:'content', content}` item of a tool call: images and links keep their own view. */
function toolContentBlock(block: unknown, warn: Warn): Exclude<ToolContentView, { type: 'diff' }> | undefined {
  if (isRecord(block) && block.type === 'image') {
    if (typeof block.data === 'string' && typeof block.mimeType === 'string') {
      return { type: 'image', mimeType: block.mimeType, data: block.data };
    }
    warn('Ignored an image content block without data or mimeType.');
    return undefined;
  }
  if (isRecord(block) && block.type === 'resource_link' && typeof block.uri === 'string') {
    const name = typeof block.name === 'string' && block.name.length > 0 ? block.name : block.uri;
    return { type: 'resource_link', uri: block.uri, name };
  }
  const text = contentBlockToMarkdown(block, warn);
  return text === undefined ? undefined : { type: 'markdown', text };
}

function toolContentItem(item: unknown, warn: Warn): ParsedToolContent | undefined {
  if (!isRecord(item)) {
    warn(`Ignored a tool call content item that is not an object (got ${describe(item)}).`);
    return undefined;
  }
  switch (item.type) {
    case 'content':
      return toolContentBlock(item.content, warn);
    case 'diff': {
      if (typeof item.path !== 'string' || typeof item.newText !== 'string') {
        warn(`Ignored a diff without a string path and newText (path ${describe(item.path)}).`);
        return undefined;
      }
      if (!isAbsent(item.oldText) && typeof item.oldText !== 'string') {
        warn(`Diff for ${describe(item.path)} has oldText ${describe(item.oldText)}; shown as a new file.`);
      }
      // A new file arrives as null, a missing field or "" depending on the agent: all mean "no old text".
      const oldText = typeof item.oldText === 'string' && item.oldText.length > 0 ? item.oldText : null;
      return { type: 'diff', path: item.path, oldText, newText: item.newText };
    }
    case 'terminal':
      if (typeof item.terminalId === 'string' && item.terminalId.length > 0) {
        return { type: 'terminal', terminalId: item.terminalId };
      }
      warn(`Ignored a terminal item whose terminalId is ${describe(item.terminalId)}.`);
      return undefined;
    default:
      warn(`Ignored a tool call content item of unknown type ${describe(item.type)}.`);
      return undefined;
  }
}

/**
 * A tool call's `content` list (diffs still as whole texts: see diffContent.ts); undefined (with a
 * warning) when the field is not a list at all.
 */
export function parseToolContent(value: unknown, warn: Warn): ParsedToolContent[] | undefined {
  if (!Array.isArray(value)) {
    warn(`Ignored tool call content that is not a list (got ${describe(value)}).`);
    return undefined;
  }
  const views: ParsedToolContent[] = [];
  for (const item of value) {
    const view = toolContentItem(item, warn);
    if (view !== undefined) views.push(view);
  }
  return views;
}

/** A tool call's `locations`; `inWorkspace` decides whether follow-along may open the file. */
export function parseLocations(value: unknown, isInWorkspace: (path: string) => boolean, warn: Warn): LocationView[] | undefined {
  if (!Array.isArray(value)) {
    warn(`Ignored tool call locations that are not a list (got ${describe(value)}).`);
    return undefined;
  }
  const views: LocationView[] = [];
  for (const item of value) {
    if (!isRecord(item) || typeof item.path !== 'string' || item.path.length === 0) {
      warn('Ignored a location without a path.');
      continue;
    }
    let inWorkspace = false;
    try {
      inWorkspace = isInWorkspace(item.path) === true;
    } catch {
      // A path the checker cannot handle is treated as outside: it is shown, never opened on its own.
    }
    const view: Draft<LocationView> = { path: item.path, inWorkspace };
    if (typeof item.line === 'number' && Number.isInteger(item.line) && item.line >= 1) {
      view.line = item.line;
    } else if (!isAbsent(item.line)) {
      warn(`Ignored line ${describe(item.line)} of location ${describe(item.path)}.`);
    }
    views.push(view);
  }
  return views;
}

const PLAN_STATUSES: ReadonlySet<string> = new Set(['pending', 'in_progress', 'completed']);
const PLAN_PRIORITIES: ReadonlySet<string> = new Set(['high', 'medium', 'low']);

/** Plan items; unknown statuses become `pending`, unknown priorities `medium`. */
export function parsePlanItems(value: unknown, warn: Warn): PlanItemView[] | undefined {
  if (!Array.isArray(value)) {
    warn(`Ignored a plan whose entries are not a list (got ${describe(value)}).`);
    return undefined;
  }
  const items: PlanItemView[] = [];
  for (const item of value) {
    if (!isRecord(item) || typeof item.content !== 'string') {
      warn('Ignored a plan entry without text content.');
      continue;
    }
    const status = typeof item.status === 'string' && PLAN_STATUSES.has(item.status) ? item.status : 'pending';
    const priority = typeof item.priority === 'string' && PLAN_PRIORITIES.has(item.priority) ? item.priority : 'medium';
    items.push({
      content: item.content,
      status: status as PlanItemView['status'],
      priority: priority as PlanItemView['priority'],
    });
  }
  return items;
}

/** Nearest known option kind: anything mentioning reject/deny is a rejection; `always` keeps its scope. */
function optionKind(kind: unknown): PermissionOptionKind {
  const text = typeof kind === 'string' ? kind.toLowerCase() : '';
  const always = text.includes('always');
  if (text.includes('reject') || text.includes('deny') || text.includes('cancel')) {
    return always ? 'reject_always' : 'reject_once';
  }
  return always ? 'allow_always' : 'allow_once';
}

/** Permission options in the agent's order; options without an id are dropped (they cannot be answered). */
export function parsePermissionOptions(value: unknown, warn: Warn): PermissionOptionView[] {
  if (!Array.isArray(value)) {
    warn(`Permission request options are not a list (got ${describe(value)}).`);
    return [];
  }
  const options: PermissionOptionView[] = [];
  for (const option of value) {
    if (!isRecord(option) || typeof option.optionId !== 'string') {
      warn('Ignored a permission option without an optionId.');
      continue;
    }
    const name = typeof option.name === 'string' && option.name.length > 0 ? option.name : option.optionId;
    options.push({ optionId: option.optionId, name, kind: optionKind(option.kind) });
  }
  return options;
}

/** rawInput/rawOutput as formatted JSON, cut at RAW_JSON_LIMIT characters with a note. */
export function formatRaw(value: unknown): string {
  let json: string | undefined;
  try {
    json = JSON.stringify(value, null, 2);
  } catch {
    json = undefined;
  }
  if (json === undefined) return l10n.t('(not representable as JSON)');
  if (json.length <= RAW_JSON_LIMIT) return json;
  return `${json.slice(0, RAW_JSON_LIMIT)}\n${l10n.t('… (truncated: {0} characters in total)', json.length)}`;
}
