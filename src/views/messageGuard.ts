import { isRecord } from '../protocol/guards';
import { isDeclaredMessage } from '../protocol/fieldChecks';
import { WEBVIEW_MESSAGES, type WebviewMessage } from '../protocol/messages';

/**
 * The webview renders agent content, so what it posts is untrusted input: a message passes only as
 * one of the declared types (own keys only: `constructor` or `toString` must not find
 * Object.prototype's functions) with every declared field passing its check (isDeclaredMessage, as
 * for the protocol inspector's page). The checks are the declaration itself
 * (src/protocol/webviewMessages.ts), so no message can be typed one way and validated another.
 */
export function isWebviewMessage(raw: unknown): raw is WebviewMessage {
  if (!isRecord(raw)) return false;
  // Wherever it appears, a conversation id must be a string.
  if (raw.conversationId !== undefined && typeof raw.conversationId !== 'string') return false;
  return isDeclaredMessage(WEBVIEW_MESSAGES, raw);
}
