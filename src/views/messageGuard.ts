import { isMentionSpec } from '../context/mentionSpecs';
import { isRecord } from '../protocol/guards';
import type { WebviewMessage } from '../protocol/messages';

/** Checks the fields of one message whose `type` is already known. */
type FieldCheck = (m: Record<string, unknown>) => boolean;

/** Most chips one prompt may carry, and most URIs one drop may name. */
const MAX_MENTIONS = 100;

const isString = (value: unknown): value is string => typeof value === 'string';
const isInteger = (value: unknown): boolean => Number.isInteger(value);
const isNonNegativeInteger = (value: unknown): boolean => Number.isInteger(value) && (value as number) >= 0;
const optional = (check: (value: unknown) => boolean) => (value: unknown): boolean => value === undefined || check(value);
const oneOf = (...allowed: string[]) => (value: unknown): boolean => isString(value) && allowed.includes(value);
/** Only the string fields named must be present; for messages with nothing else to check. */
const strings = (...fields: string[]): FieldCheck => (m) => fields.every((f) => isString(m[f]));
const none: FieldCheck = () => true;

const isStringList = (value: unknown): boolean => Array.isArray(value) && value.every(isString);
const isMentionList = (value: unknown): boolean => Array.isArray(value) && value.length <= MAX_MENTIONS && value.every(isMentionSpec);
const isUriList = (value: unknown): boolean =>
  Array.isArray(value) && value.length <= MAX_MENTIONS && value.every((u) => isString(u) && u.length < 8192);

/**
 * One validator per webview → host message type. The mapped type makes a type missing here a
 * compile error, so a new message cannot reach the host unchecked (nor be silently refused).
 */
const VALIDATORS: { [T in WebviewMessage['type']]: FieldCheck } = {
  // Any `ready` passes: a panel from another version must still reach the host, which compares
  // `protocolVersion` and answers a mismatch with the reload notice instead of a snapshot.
  ready: none,
  reloadView: none,
  olderEntriesWanted: strings('conversationId'),
  prompt: (m) => isString(m.text) && optional(isMentionList)(m.mentions),
  mentionQuery: (m) => isString(m.query) && isInteger(m.requestId),
  dropUris: (m) => isUriList(m.uris),
  openMention: (m) => isString(m.uri) && optional(isInteger)(m.line),
  cancel: none,
  respondPermission: strings('requestId', 'optionId'),
  newConversation: none,
  selectConversation: strings('conversationId'),
  closeConversation: strings('conversationId'),
  showHistory: none,
  restart: none,
  retry: none,
  startFresh: none,
  selectAgent: strings('name'),
  addPreset: strings('presetId'),
  openLocation: (m) => isString(m.path) && optional(isInteger)(m.line),
  openDiff: (m) => isString(m.entryId) && isInteger(m.index),
  fetchDiffLines: (m) =>
    isInteger(m.requestId) && isString(m.entryId) && isInteger(m.index) && isInteger(m.diffId) && isNonNegativeInteger(m.row) && isNonNegativeInteger(m.count),
  openTerminal: strings('terminalId'),
  openLink: strings('href'),
  showLog: none,
  signIn: none,
  setMode: strings('modeId'),
  queueEdit: strings('itemId', 'text'),
  queueRemove: strings('itemId'),
  queueMove: (m) => isString(m.itemId) && isInteger(m.offset),
  queueSendNow: strings('itemId'),
  queueResume: none,
  queueClear: none,
  saveRule: (m) => isString(m.requestId) && isString(m.value) && oneOf('conversation', 'workspace', 'global')(m.scope),
  dismissRule: strings('requestId'),
  reviewKeep: (m) => optional(isStringList)(m.paths),
  reviewUndo: (m) => optional(isStringList)(m.paths),
  reviewOpenDiff: strings('path'),
  reviewHunks: (m) => isString(m.path) && typeof m.open === 'boolean',
  reviewHunk: (m) => isString(m.path) && isInteger(m.index) && oneOf('accept', 'reject')(m.action),
  rewind: strings('entryId'),
  setConfigOption: (m) => isString(m.configId) && (isString(m.value) || typeof m.value === 'boolean'),
  authenticate: strings('methodId'),
  answerQuestion: (m) => isString(m.entryId) && oneOf('accept', 'decline', 'cancel')(m.action) && optional(isRecord)(m.content),
  openQuestionUrl: strings('entryId'),
  checkAgent: none,
  manageRules: (m) => optional(isString)(m.ruleId),
  focusChanged: (m) => typeof m.focused === 'boolean',
};

/** The webview renders agent content, so treat what it posts as untrusted input. */
export function isWebviewMessage(raw: unknown): raw is WebviewMessage {
  if (!isRecord(raw)) return false;
  const type = raw.type;
  // Own keys only: `constructor` or `toString` must not find Object.prototype's functions.
  if (!isString(type) || !Object.hasOwn(VALIDATORS, type)) return false;
  // Optional everywhere it appears: when present it must be a string.
  if (!optional(isString)(raw.conversationId)) return false;
  return VALIDATORS[type as WebviewMessage['type']](raw);
}
