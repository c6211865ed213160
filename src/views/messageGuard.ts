import type { WebviewMessage } from '../protocol/messages';

const STRING_FIELDS: Partial<Record<WebviewMessage['type'], string[]>> = {
  prompt: ['text'],
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
  'ready', 'prompt', 'cancel', 'respondPermission', 'newSession', 'restart', 'selectAgent', 'addPreset',
  'openLocation', 'openDiff', 'openTerminal', 'openLink', 'showLog', 'signIn', 'focusChanged', 'setMode',
]);

/** The webview renders agent content, so treat what it posts as untrusted input. */
export function isWebviewMessage(raw: unknown): raw is WebviewMessage {
  if (typeof raw !== 'object' || raw === null) return false;
  const type = (raw as { type?: unknown }).type;
  if (typeof type !== 'string' || !TYPES.has(type)) return false;
  const fields = STRING_FIELDS[type as WebviewMessage['type']] ?? [];
  return fields.every((f) => typeof (raw as Record<string, unknown>)[f] === 'string');
}
