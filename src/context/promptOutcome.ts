/**
 * What became of each mention when a prompt was built, and the limits that decide it: plain data
 * the composer shows ("src/big.ts was cut to its first 200 KB"), plus the English sentence for it.
 */
import * as l10n from '@vscode/l10n';
import { FileAccessError } from '../client/fsHandler';
import { errorMessage } from '../util/errors';
import { assertNever } from '../protocol/guards';
import type { MentionView } from './mentions';
import { formatBytes } from '../protocol/displayLanguage';

/** Size limits of one prompt. Bytes are UTF-8 bytes of text, or decoded bytes of media. */
export interface PromptLimits {
  /**
   * The most text of one mention that is sent (a file, selection, problems list, output, diff);
   * the rest is cut. Headings and the cut notice come on top (a few hundred bytes).
   */
  maxBlockBytes: number;
  /** The most text of the whole prompt (the user's text counts first). */
  maxPromptBytes: number;
  /** The largest image sent (5 MB is what Claude's API takes per image). */
  maxImageBytes: number;
  /** The largest audio clip sent. */
  maxAudioBytes: number;
  /** The most image and audio bytes in one prompt together. */
  maxMediaBytes: number;
}

export const DEFAULT_PROMPT_LIMITS: Readonly<PromptLimits> = {
  maxBlockBytes: 200 * 1024,
  maxPromptBytes: 1024 * 1024,
  maxImageBytes: 5 * 1024 * 1024,
  maxAudioBytes: 5 * 1024 * 1024,
  maxMediaBytes: 20 * 1024 * 1024,
};

/**
 * Image types sent by default: the four that Claude, OpenAI and Gemini models all take. Another
 * type (BMP, TIFF, SVG) can fail the whole turn at the model's API, so it is refused here instead.
 */
export const DEFAULT_IMAGE_TYPES: readonly string[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

/**
 * How a mention went out:
 * - `embedded`: a `resource` block with its text (the agent advertised `embeddedContext`);
 * - `linked`: a `resource_link` (no embedding, a folder, a binary or unreadable file, or over budget);
 * - `text`: a plain `text` block with a heading (problems/terminal/diff without `embeddedContext`);
 * - `image` / `audio`: a media block;
 * - `notSent`: nothing was sent for it (see the reason).
 */
export type SentAs = 'embedded' | 'linked' | 'text' | 'image' | 'audio' | 'notSent';

/** Why a mention did not go out whole, as data the UI can act on. */
export type OutcomeReason =
  /** Only part of the text was sent: its first (`start`) or last (`end`, terminal output) bytes. */
  | { code: 'cut'; keptBytes: number; totalBytes: number; limitBytes: number; kept: 'start' | 'end' }
  /** The prompt's text (or media) budget had no room left for it. */
  | { code: 'overBudget'; limitBytes: number; media: boolean }
  /** An image or audio clip over its own limit. */
  | { code: 'tooLarge'; bytes: number; limitBytes: number }
  /** The agent does not advertise `promptCapabilities.image` / `.audio`. */
  | { code: 'notAccepted'; capability: 'image' | 'audio' }
  /** A binary file: linked, its bytes are never sent as text. */
  | { code: 'binary' }
  /** Reading the file failed (`detail`: "file not found", "it is a folder", the error's message). */
  | { code: 'unreadable'; detail: string }
  /** The mention itself is wrong (relative path, bad range, unsupported media type). */
  | { code: 'invalid'; detail: string }
  /** The same thing was mentioned earlier in this prompt; sent once. */
  | { code: 'duplicate' };

/** One per mention, in the order the mentions were given. */
export interface MentionOutcome {
  /** How the mention is shown (chip, thread). */
  view: MentionView;
  sentAs: SentAs;
  /** Set when the mention was cut, linked instead of embedded, or not sent. */
  reason?: OutcomeReason;
  /** The reason as a sentence for the user, naming the mention. */
  note?: string;
}

/** The sentence for a reason: `name` is how the mention is named (`src/big.ts`, `Terminal bash`). */
export function describeOutcome(name: string, sentAs: SentAs, reason: OutcomeReason): string {
  switch (reason.code) {
    case 'cut': {
      const [limit, total] = [formatBytes(reason.limitBytes), formatBytes(reason.totalBytes)];
      return reason.kept === 'start'
        ? l10n.t('{0} was cut to its first {1} (of {2})', name, limit, total)
        : l10n.t('{0} was cut to its last {1} (of {2})', name, limit, total);
    }
    case 'overBudget': {
      const limit = formatBytes(reason.limitBytes);
      if (reason.media) {
        return sentAs === 'linked'
          ? l10n.t('{0} was linked, not embedded: images and audio of a prompt are limited to {1}', name, limit)
          : l10n.t('{0} was not sent: images and audio of a prompt are limited to {1}', name, limit);
      }
      return sentAs === 'linked'
        ? l10n.t('{0} was linked, not embedded: a prompt is limited to {1}', name, limit)
        : l10n.t('{0} was not sent: a prompt is limited to {1}', name, limit);
    }
    case 'tooLarge':
      return l10n.t('{0} is larger than {1} and was not sent', name, formatBytes(reason.limitBytes));
    case 'notAccepted':
      return reason.capability === 'image'
        ? l10n.t('{0} was not sent: the agent does not accept images', name)
        : l10n.t('{0} was not sent: the agent does not accept audio', name);
    case 'binary':
      return l10n.t('{0} is a binary file: linked, not embedded', name);
    case 'unreadable':
      return l10n.t('{0} could not be read ({1}): linked, not embedded', name, reason.detail);
    case 'invalid':
      return l10n.t('{0} was not sent: {1}', name, reason.detail);
    case 'duplicate':
      return l10n.t('{0} is mentioned more than once: sent once', name);
    default:
      return assertNever(reason);
  }
}

/** The reason for a failed `readText`, from `FileAccess`'s documented errors. */
export function readFailure(err: unknown): OutcomeReason {
  const kind = err instanceof FileAccessError ? err.kind : undefined;
  const code = (err as { code?: unknown } | null)?.code;
  if (kind === 'binary') return { code: 'binary' };
  if (kind === 'notFound' || code === 'ENOENT' || code === 'FileNotFound' || code === 'ENOTDIR') {
    return { code: 'unreadable', detail: l10n.t('file not found') };
  }
  if (kind === 'isDirectory' || code === 'EISDIR' || code === 'FileIsADirectory') {
    return { code: 'unreadable', detail: l10n.t('it is a folder') };
  }
  if (code === 'EACCES' || code === 'EPERM' || code === 'NoPermissions') return { code: 'unreadable', detail: l10n.t('permission denied') };
  return { code: 'unreadable', detail: errorMessage(err) };
}
