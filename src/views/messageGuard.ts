import { isMentionSpec } from '../context/mentionSpecs';
import type { WebviewMessage } from '../protocol/messages';

const STRING_FIELDS: Partial<Record<WebviewMessage['type'], string[]>> = {
  prompt: ['text'],
  mentionQuery: ['query'],
  openMention: ['uri'],
  selectConversation: ['conversationId'],
  closeConversation: ['conversationId'],
  queueEdit: ['itemId', 'text'],
  queueRemove: ['itemId'],
  queueMove: ['itemId'],
  queueSendNow: ['itemId'],
  saveRule: ['requestId', 'value', 'scope'],
  reviewOpenDiff: ['path'],
  reviewHunks: ['path'],
  reviewHunk: ['path', 'action'],
  rewind: ['entryId'],
  setConfigOption: ['configId'],
  authenticate: ['methodId'],
  answerQuestion: ['entryId', 'action'],
  openQuestionUrl: ['entryId'],
  dismissRule: ['requestId'],
  respondPermission: ['requestId', 'optionId'],
  selectAgent: ['name'],
  addPreset: ['presetId'],
  openLocation: ['path'],
  openDiff: ['entryId'],
  openTerminal: ['terminalId'],
  openLink: ['href'],
  setMode: ['modeId'],
};

const TYPES = new Set<string>([
  'ready', 'prompt', 'cancel', 'respondPermission', 'newConversation', 'selectConversation', 'closeConversation',
  'showHistory', 'restart', 'retry', 'startFresh', 'selectAgent', 'addPreset', 'openLocation', 'openDiff',
  'openTerminal', 'openLink', 'showLog', 'signIn', 'focusChanged', 'setMode', 'queueEdit', 'queueRemove',
  'queueMove', 'queueSendNow', 'queueResume', 'queueClear', 'saveRule', 'dismissRule', 'manageRules',
  'reviewKeep', 'reviewUndo', 'reviewOpenDiff', 'reviewHunks', 'reviewHunk', 'rewind',
  'setConfigOption', 'authenticate', 'answerQuestion', 'openQuestionUrl', 'checkAgent',
  'mentionQuery', 'dropUris', 'openMention',
]);

/** Most chips one prompt may carry, and most URIs one drop may name. */
const MAX_MENTIONS = 100;

/** The webview renders agent content, so treat what it posts as untrusted input. */
export function isWebviewMessage(raw: unknown): raw is WebviewMessage {
  if (typeof raw !== 'object' || raw === null) return false;
  const type = (raw as { type?: unknown }).type;
  if (typeof type !== 'string' || !TYPES.has(type)) return false;
  const record = raw as Record<string, unknown>;
  const fields = STRING_FIELDS[type as WebviewMessage['type']] ?? [];
  if (!fields.every((f) => typeof record[f] === 'string')) return false;
  // Optional everywhere it appears: when present it must be a string.
  if (record.conversationId !== undefined && typeof record.conversationId !== 'string') return false;
  if ((type === 'reviewKeep' || type === 'reviewUndo') && record.paths !== undefined && !(Array.isArray(record.paths) && record.paths.every((p) => typeof p === 'string'))) return false;
  if (type === 'reviewHunk' && (!Number.isInteger(record.index) || (record.action !== 'accept' && record.action !== 'reject'))) return false;
  if (type === 'reviewHunks' && typeof record.open !== 'boolean') return false;
  if (type === 'setConfigOption' && typeof record.value !== 'string' && typeof record.value !== 'boolean') return false;
  if (type === 'answerQuestion' && (!['accept', 'decline', 'cancel'].includes(String(record.action)) || (record.content !== undefined && (typeof record.content !== 'object' || record.content === null)))) return false;
  if (type === 'saveRule' && !['conversation', 'workspace', 'global'].includes(String(record.scope))) return false;
  if (type === 'manageRules' && record.ruleId !== undefined && typeof record.ruleId !== 'string') return false;
  if (type === 'prompt' && record.mentions !== undefined && !(Array.isArray(record.mentions) && record.mentions.length <= MAX_MENTIONS && record.mentions.every(isMentionSpec))) return false;
  if (type === 'mentionQuery' && !Number.isInteger(record.requestId)) return false;
  if (type === 'dropUris' && !(Array.isArray(record.uris) && record.uris.length <= MAX_MENTIONS && record.uris.every((u) => typeof u === 'string' && u.length < 8192))) return false;
  if (type === 'openMention' && record.line !== undefined && !Number.isInteger(record.line)) return false;
  return type !== 'queueMove' || Number.isInteger(record.offset);
}
