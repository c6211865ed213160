/**
 * Builds the `prompt` of ACP `session/prompt` from the user's text and mentions, within the agent's
 * prompt capabilities and Tandem's size limits, and says what became of each mention.
 *
 * Order: the user's text first (left out when blank: models' APIs reject empty text blocks), then
 * one block per mention in the order given. That is the ACP spec's own `session/prompt` example
 * (text, then the resource), and it matches Zed, which sends the text and mention blocks in the
 * order they stand in the message: chips have no place in the text, so they follow it. Adapters
 * keep that order: claude-agent-acp turns links into `[@name](uri)` in place and appends embedded
 * text as `<context ref="uri">` at the end; Gemini CLI joins text and `@path` in order. (Gemini CLI
 * 0.61 takes a link's path by cutting `file://` off without decoding it, so a *linked* path with a
 * space does not resolve there; it advertises embeddedContext, so files reach it embedded.)
 *
 * Per kind (E = the agent advertises `promptCapabilities.embeddedContext`):
 * - file, selection, symbol: with E, a `resource` with the *editor's* text (unsaved changes
 *   included, through `MentionReader`); a selection or symbol carries only its range's text, the
 *   range being in the URI (`file:///a.ts#L10-L20`), which both adapters show the model next to the
 *   text. Without E, or for a binary, unreadable or over-budget file: a `resource_link`.
 * - folder: always a `resource_link` (`file:///dir/`), as Zed does; the agent lists it itself.
 * - problems, terminal, gitDiff: with E, a `resource` (`tandem://problems`, `tandem://terminal/<name>`,
 *   `tandem://git/diff`); without, a `text` block: a heading, then the body fenced.
 * - image, audio: a media block when the agent advertises `image` / `audio`; else not sent.
 * - conversation (a handoff from another agent): with E, a `resource` (`tandem://conversation/<id>`,
 *   `text/markdown`); without, a `text` block, headed. Over the block limit it keeps its end (where
 *   the conversation stands), and its preface, which says what the agent is reading, stays first.
 *
 * Limits (`PromptLimits`): a mention's text over `maxBlockBytes` is cut (terminal output keeps its
 * end, everything else its start) and ends with a notice saying so, so the model never takes a
 * part for the whole file. Mentions are taken in order against `maxPromptBytes`: one that does
 * not fit what is left is linked (files) or not sent (the rest); later ones that fit still go.
 * The user's text is never cut.
 */
import * as l10n from '@vscode/l10n';
import type * as acp from '@agentclientprotocol/sdk';
import { BINARY_SNIFF_BYTES } from '../client/fsHandler';
import { displayPath, fileUri, isAbsolutePath } from './contextUri';
import type { PathStyle } from './contextUri';
import { gitDiffBody, gitDiffHeading, headedText, problemsBody, problemsHeading, terminalBody, terminalHeading } from './contextText';
import { mentionName, mentionUri, mentionView } from './mentions';
import type { AudioMention, FileMention, ImageMention, Mention } from './mentions';
import type { SelectionMention, SymbolMention } from './mentions';
import type { ConversationMention, GitDiffMention, ProblemsMention, TerminalMention } from './mentions';
import { fileTypeOf } from './mimeTypes';
import type { FileType } from './mimeTypes';
import { DEFAULT_IMAGE_TYPES, DEFAULT_PROMPT_LIMITS, describeOutcome, readFailure } from './promptOutcome';
import type { MentionOutcome, OutcomeReason, PromptLimits, SentAs } from './promptOutcome';
import { rangeText } from './rangeText';
import { assertNever } from '../protocol/guards';
import { formatBytes } from '../protocol/displayLanguage';
import { cutHead, cutTail, utf8Length } from './textBytes';

/**
 * Where file text comes from. `FileAccess` (src/client/fsHandler.ts) fits: the editor's adapter
 * reads open documents, so what is embedded is what the user sees, unsaved changes included.
 */
export interface MentionReader {
  /** The file's text; rejects like `FileAccess.readText` (not found, folder, binary). */
  readText(path: string): Promise<string>;
  /** The file's size in bytes, for `resource_link.size`; optional, undefined when unknown. */
  fileSize?(path: string): Promise<number | undefined>;
}

export interface PromptInput {
  /** What the user typed, sent as it is. */
  text: string;
  mentions: readonly Mention[];
}

export interface PromptBuildOptions {
  /** `agentCapabilities.promptCapabilities` from `initialize`; absent means text and links only. */
  capabilities: acp.PromptCapabilities | null | undefined;
  reader: MentionReader;
  /** Overrides of `DEFAULT_PROMPT_LIMITS`. */
  limits?: Partial<PromptLimits>;
  /** Image MIME types sent (default `DEFAULT_IMAGE_TYPES`). */
  imageTypes?: readonly string[];
  /** Path style of the workspace (default `posix`). */
  pathStyle?: PathStyle;
  /** Workspace folders: notes, headings and problem lines show paths relative to them. */
  workspaceRoots?: readonly string[];
}

export interface PromptBuild {
  /** The `prompt` of `session/prompt`; empty when there was nothing to send. */
  blocks: acp.ContentBlock[];
  /** One per mention, in the order given. */
  outcomes: MentionOutcome[];
  /** UTF-8 bytes of text in `blocks` (user text, embedded and plain text). */
  textBytes: number;
  /** Decoded bytes of images and audio in `blocks`. */
  mediaBytes: number;
}

type Result = { sentAs: SentAs; reason?: OutcomeReason };

interface Build {
  opts: PromptBuildOptions;
  limits: PromptLimits;
  style: PathStyle;
  embed: boolean;
  blocks: acp.ContentBlock[];
  textBytes: number;
  mediaBytes: number;
}

export async function buildPrompt(input: PromptInput, opts: PromptBuildOptions): Promise<PromptBuild> {
  const b: Build = {
    opts,
    limits: { ...DEFAULT_PROMPT_LIMITS, ...opts.limits },
    style: opts.pathStyle ?? 'posix',
    embed: opts.capabilities?.embeddedContext === true,
    blocks: [],
    textBytes: 0,
    mediaBytes: 0,
  };
  if (input.text.trim() !== '') {
    b.blocks.push({ type: 'text', text: input.text });
    b.textBytes += utf8Length(input.text);
  }
  const display = { pathStyle: b.style, workspaceRoots: opts.workspaceRoots };
  const seen = new Set<string>();
  const outcomes: MentionOutcome[] = [];
  for (const mention of input.mentions) {
    const key = mention.kind === 'image' || mention.kind === 'audio' ? undefined : mentionUri(mention, b.style);
    let result: Result;
    if (key !== undefined && seen.has(key)) result = { sentAs: 'notSent', reason: { code: 'duplicate' } };
    else result = await add(b, mention);
    if (key !== undefined) seen.add(key);
    const outcome: MentionOutcome = { view: mentionView(mention, display), sentAs: result.sentAs };
    if (result.reason) {
      outcome.reason = result.reason;
      outcome.note = describeOutcome(mentionName(mention, display), result.sentAs, result.reason);
    }
    outcomes.push(outcome);
  }
  return { blocks: b.blocks, outcomes, textBytes: b.textBytes, mediaBytes: b.mediaBytes };
}

function add(b: Build, m: Mention): Promise<Result> | Result {
  switch (m.kind) {
    case 'file':
    case 'selection':
    case 'symbol':
      return addFileText(b, m);
    case 'folder':
      if (!isAbsolutePath(m.path, b.style)) return invalidPath(m.path);
      b.blocks.push({ type: 'resource_link', uri: mentionUri(m, b.style) ?? '', name: mentionView(m, { pathStyle: b.style }).label });
      return { sentAs: 'linked' };
    case 'problems':
    case 'terminal':
    case 'gitDiff':
      return addContextText(b, m);
    case 'image':
    case 'audio':
      return addMedia(b, m);
    case 'conversation':
      return addConversation(b, m);
    default:
      return assertNever(m);
  }
}

async function addFileText(b: Build, m: FileMention | SelectionMention | SymbolMention): Promise<Result> {
  if (!isAbsolutePath(m.path, b.style)) return invalidPath(m.path);
  if (m.kind !== 'file') {
    const r = m.range;
    const ok = [r.startLine, r.endLine].every((n) => Number.isInteger(n) && n >= 1) && r.endLine >= r.startLine;
    if (!ok) return { sentAs: 'notSent', reason: { code: 'invalid', detail: l10n.t('lines {0}-{1} are not a range', r.startLine, r.endLine) } };
  }
  const type = fileTypeOf(m.path);
  const link = async (reason?: OutcomeReason): Promise<Result> => {
    b.blocks.push(await linkBlock(b, m, type));
    return reason ? { sentAs: 'linked', reason } : { sentAs: 'linked' };
  };
  if (!b.embed) return link();
  if (type.binary) return link({ code: 'binary' });
  if (b.textBytes >= b.limits.maxPromptBytes) return link(overBudget(b));
  let text: string;
  try {
    text = await b.opts.reader.readText(m.path);
  } catch (err) {
    return link(readFailure(err));
  }
  // The editor hands over decoded text, so sniff here as FsHandler does (NUL in the first 8 KB).
  if (text.slice(0, BINARY_SNIFF_BYTES).includes('\u0000')) return link({ code: 'binary' });
  if (m.kind !== 'file') {
    const part = rangeText(text, m.range);
    if (part === undefined) return link({ code: 'unreadable', detail: l10n.t('line {0} is past the end of the file', m.range.startLine) });
    text = part;
  }
  const capped = capText(b, text, 'start', 'read the file for the rest');
  const bytes = utf8Length(capped.text);
  if (b.textBytes + bytes > b.limits.maxPromptBytes) return link(overBudget(b));
  const resource: acp.TextResourceContents = { uri: mentionUri(m, b.style) ?? '', text: capped.text };
  if (type.mimeType) resource.mimeType = type.mimeType;
  b.blocks.push({ type: 'resource', resource });
  b.textBytes += bytes;
  return capped.reason ? { sentAs: 'embedded', reason: capped.reason } : { sentAs: 'embedded' };
}

async function linkBlock(b: Build, m: FileMention | SelectionMention | SymbolMention, type: FileType): Promise<acp.ContentBlock> {
  const link: acp.ResourceLink & { type: 'resource_link' } = {
    type: 'resource_link',
    uri: mentionUri(m, b.style) ?? fileUri(m.path, b.style),
    name: mentionView(m, { pathStyle: b.style }).label,
  };
  if (type.mimeType) link.mimeType = type.mimeType;
  // A range's link names part of the file, so the file's size would mislead.
  if (m.kind === 'file' && b.opts.reader.fileSize) {
    const size = await b.opts.reader.fileSize(m.path).catch(() => undefined);
    if (typeof size === 'number' && Number.isFinite(size) && size >= 0) link.size = size;
  }
  return link;
}

function addContextText(b: Build, m: ProblemsMention | TerminalMention | GitDiffMention): Result {
  const shown = (p: string) => displayPath(p, b.opts.workspaceRoots ?? [], b.style);
  let body: string;
  let heading: string;
  let mimeType = 'text/plain';
  let info = '';
  let kept: 'start' | 'end' = 'start';
  if (m.kind === 'problems') {
    body = problemsBody(m.problems, shown);
    heading = problemsHeading(m.problems, m.file === undefined ? undefined : shown(m.file));
  } else if (m.kind === 'terminal') {
    body = terminalBody(m.output);
    heading = terminalHeading(m.name);
    kept = 'end';
  } else {
    body = gitDiffBody(m.diff);
    heading = gitDiffHeading(m.root === undefined ? undefined : shown(m.root));
    mimeType = 'text/x-diff';
    info = 'diff';
  }
  const capped = capText(b, body, kept, kept === 'end' ? 'earlier output is left out' : 'the rest is left out');
  const text = b.embed ? capped.text : headedText(heading, capped.text, info);
  const bytes = utf8Length(text);
  if (b.textBytes + bytes > b.limits.maxPromptBytes) return { sentAs: 'notSent', reason: overBudget(b) };
  if (b.embed) b.blocks.push({ type: 'resource', resource: { uri: mentionUri(m, b.style) ?? '', mimeType, text } });
  else b.blocks.push({ type: 'text', text });
  b.textBytes += bytes;
  const sentAs = b.embed ? 'embedded' : 'text';
  return capped.reason ? { sentAs, reason: capped.reason } : { sentAs };
}

function addConversation(b: Build, m: ConversationMention): Result {
  const capped = capText(b, m.markdown, 'end', 'the earlier part of the conversation is left out');
  const body = `${m.preface}\n\n${capped.text}`;
  const text = b.embed ? body : headedText(mentionName(m), body, 'markdown');
  const bytes = utf8Length(text);
  if (b.textBytes + bytes > b.limits.maxPromptBytes) return { sentAs: 'notSent', reason: overBudget(b) };
  if (b.embed) b.blocks.push({ type: 'resource', resource: { uri: mentionUri(m, b.style) ?? '', mimeType: 'text/markdown', text } });
  else b.blocks.push({ type: 'text', text });
  b.textBytes += bytes;
  const sentAs = b.embed ? 'embedded' : 'text';
  return capped.reason ? { sentAs, reason: capped.reason } : { sentAs };
}

function addMedia(b: Build, m: ImageMention | AudioMention): Result {
  const capability = m.kind;
  if (b.opts.capabilities?.[capability] !== true) return { sentAs: 'notSent', reason: { code: 'notAccepted', capability } };
  const accepted = capability === 'image' ? (b.opts.imageTypes ?? DEFAULT_IMAGE_TYPES) : undefined;
  const mime = m.mimeType.toLowerCase();
  if (accepted ? !accepted.includes(mime) : !/^audio\/[\w.+-]+$/.test(mime)) {
    const kind = capability === 'image' ? l10n.t('image') : l10n.t('audio');
    const detail = accepted
      ? l10n.t('{0} is not a supported {1} type (sent: {2})', m.mimeType, kind, accepted.map((t) => t.replace(/^image\//, '')).join(', '))
      : l10n.t('{0} is not a supported {1} type', m.mimeType, kind);
    return { sentAs: 'notSent', reason: { code: 'invalid', detail } };
  }
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(m.data) || m.data.length % 4 === 1) {
    return { sentAs: 'notSent', reason: { code: 'invalid', detail: l10n.t('its data is not base64') } };
  }
  const bytes = Math.floor((m.data.length * 3) / 4) - (m.data.endsWith('==') ? 2 : m.data.endsWith('=') ? 1 : 0);
  const limit = capability === 'image' ? b.limits.maxImageBytes : b.limits.maxAudioBytes;
  if (bytes > limit) return { sentAs: 'notSent', reason: { code: 'tooLarge', bytes, limitBytes: limit } };
  if (b.mediaBytes + bytes > b.limits.maxMediaBytes) {
    return { sentAs: 'notSent', reason: { code: 'overBudget', limitBytes: b.limits.maxMediaBytes, media: true } };
  }
  if (m.kind === 'image') {
    const uri = mentionUri(m, b.style);
    b.blocks.push({ type: 'image', mimeType: mime, data: m.data, ...(uri ? { uri } : {}) });
  } else {
    b.blocks.push({ type: 'audio', mimeType: mime, data: m.data });
  }
  b.mediaBytes += bytes;
  return { sentAs: capability };
}

/**
 * `text` within `maxBlockBytes`, keeping its start or end, with a notice at the cut so the model
 * knows it sees a part (`rest`: what to do about the missing part).
 */
function capText(b: Build, text: string, kept: 'start' | 'end', rest: string): { text: string; reason?: OutcomeReason } {
  const limitBytes = b.limits.maxBlockBytes;
  const totalBytes = utf8Length(text);
  if (totalBytes <= limitBytes) return { text };
  const part = kept === 'start' ? cutHead(text, limitBytes) : cutTail(text, limitBytes);
  const which = kept === 'start' ? 'first' : 'last';
  const notice = `[Cut by Tandem: only the ${which} ${formatBytes(limitBytes, 'en')} of ${formatBytes(totalBytes, 'en')} are here; ${rest}.]`;
  const joined = kept === 'start' ? `${part}${part.endsWith('\n') ? '' : '\n'}${notice}` : `${notice}\n${part}`;
  return { text: joined, reason: { code: 'cut', keptBytes: utf8Length(part), totalBytes, limitBytes, kept } };
}

function overBudget(b: Build): OutcomeReason {
  return { code: 'overBudget', limitBytes: b.limits.maxPromptBytes, media: false };
}

function invalidPath(path: string): Result {
  return { sentAs: 'notSent', reason: { code: 'invalid', detail: l10n.t('{0} is not an absolute path', path) } };
}
