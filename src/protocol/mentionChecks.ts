/**
 * Checks a mention spec the panel posts (its messages are untrusted): absolute paths, 1-based
 * ordered ranges, bounded media. In the protocol so that one declaration of the panel's messages
 * (webviewMessages.ts) can use it.
 */
import { isRecord } from './guards';
import type { LineRangeView, MentionSpec } from './mentionViews';

/** True for an absolute path in the given style (a drive or UNC path on Windows). */
export function isAbsolutePath(path: string, style: 'posix' | 'windows'): boolean {
  if (style === 'posix') return path.startsWith('/');
  return /^[A-Za-z]:[\\/]/.test(path) || /^[\\/]{2}[^\\/]+[\\/][^\\/]+/.test(path);
}

/** Longest base64 accepted for one pasted image or clip (~15 MB decoded; the prompt limits cut lower). */
const MAX_MEDIA_CHARS = 20 * 1024 * 1024;
const MAX_NAME = 500;

function isName(value: unknown): value is string {
  return typeof value === 'string' && value !== '' && value.length <= MAX_NAME;
}

function isPath(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 4096 && (isAbsolutePath(value, 'posix') || isAbsolutePath(value, 'windows'));
}

function isLine(value: unknown): boolean {
  return Number.isInteger(value) && (value as number) >= 1;
}

function isRange(value: unknown): value is LineRangeView {
  if (!isRecord(value) || !isLine(value.startLine) || !isLine(value.endLine)) return false;
  if ((value.endLine as number) < (value.startLine as number)) return false;
  const column = (c: unknown) => c === undefined || (Number.isInteger(c) && (c as number) >= 0);
  return column(value.startColumn) && column(value.endColumn);
}

/** True for a well-formed spec: absolute paths, 1-based ordered ranges, bounded media. */
export function isMentionSpec(value: unknown): value is MentionSpec {
  if (!isRecord(value)) return false;
  switch (value.kind) {
    case 'file':
    case 'folder':
      return isPath(value.path);
    case 'selection':
      return isPath(value.path) && isRange(value.range);
    case 'symbol':
      return isPath(value.path) && isName(value.name) && isRange(value.range) && (value.symbolKind === undefined || typeof value.symbolKind === 'string');
    case 'problems':
      return value.file === undefined || isPath(value.file);
    case 'terminal':
      return isName(value.name);
    case 'gitDiff':
      return true;
    case 'conversation':
      return isName(value.conversationId) && typeof value.title === 'string' && value.title.length <= MAX_NAME && isName(value.agentName);
    case 'image':
    case 'audio':
      return (
        isName(value.name) &&
        typeof value.mimeType === 'string' &&
        /^[a-z]+\/[a-z0-9.+-]+$/i.test(value.mimeType) &&
        typeof value.data === 'string' &&
        value.data.length <= MAX_MEDIA_CHARS
      );
    default:
      return false;
  }
}
