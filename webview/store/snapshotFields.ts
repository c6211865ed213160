/**
 * Reads the parts of a host snapshot the store keeps, keeping only well-formed items: a malformed
 * message (a host of another build, a bug) leaves a part empty instead of breaking the panel.
 */
import type {
  AccountView,
  CommandView,
  ConfigOptionView,
  Entry,
  MentionChip,
  ModesView,
  QueueView,
  QuotaPoolView,
  QuotaView,
  ReviewView,
  TabView,
  UsageView,
} from '../../src/protocol/messages';
import { isRecord } from '../../src/protocol/guards';
import type { Draft } from '../../src/protocol/draft';

/** Keeps only well-formed commands: the list drives the composer's suggestions. */
export function parseCommands(value: unknown): CommandView[] {
  if (!Array.isArray(value)) return [];
  return value.filter((c): c is CommandView => isRecord(c) && typeof c.name === 'string' && c.name !== '' && typeof c.description === 'string');
}

/** Modes with at least one well-formed mode, else undefined (no picker). */
export function parseModes(value: unknown): ModesView | undefined {
  if (!isRecord(value) || typeof value.currentModeId !== 'string' || !Array.isArray(value.available)) return undefined;
  const available = value.available.filter((m): m is ModesView['available'][number] => isRecord(m) && typeof m.id === 'string' && typeof m.name === 'string');
  return available.length === 0 ? undefined : { currentModeId: value.currentModeId, available };
}

export function parseQueue(value: unknown): QueueView {
  if (!isRecord(value) || !Array.isArray(value.items)) return { items: [] };
  const items = value.items.filter((i): i is QueueView['items'][number] => isRecord(i) && typeof i.id === 'string' && typeof i.text === 'string');
  return typeof value.paused === 'string' ? { items, paused: value.paused } : { items };
}

export function isChip(value: unknown): value is MentionChip {
  return isRecord(value) && isRecord(value.spec) && typeof value.spec.kind === 'string' && isRecord(value.view) && typeof value.view.label === 'string';
}

export function parseOptions(value: unknown): ConfigOptionView[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (o): o is ConfigOptionView => isRecord(o) && typeof o.id === 'string' && typeof o.name === 'string' && (o.type === 'select' || o.type === 'boolean'),
  );
}

export function parseUsage(value: unknown): UsageView | undefined {
  return isRecord(value) && typeof value.used === 'number' && typeof value.size === 'number' && value.size > 0 ? (value as unknown as UsageView) : undefined;
}

export function parseAccount(value: unknown): AccountView | undefined {
  if (!isRecord(value) || typeof value.label !== 'string' || value.label === '') return undefined;
  const account: Draft<AccountView> = { label: value.label };
  if (typeof value.signedIn === 'boolean') account.signedIn = value.signedIn;
  if (typeof value.detail === 'string' && value.detail !== '') account.detail = value.detail;
  return account;
}

/** The host's QuotaView, its pools and meters kept only where they have the fields the meter reads. */
export function parseQuota(value: unknown): QuotaView | undefined {
  if (!isRecord(value) || !Array.isArray(value.pools)) return undefined;
  const pools = value.pools
    .filter((p): p is QuotaPoolView => isRecord(p) && typeof p.id === 'string' && Array.isArray(p.meters))
    .map((p) => ({ ...p, meters: p.meters.filter((m) => isRecord(m) && typeof m.id === 'string') }))
    .filter((p) => p.meters.length > 0);
  if (pools.length === 0) return undefined;
  return { pools, ...(typeof value.updatedAt === 'string' ? { updatedAt: value.updatedAt } : {}) };
}

export function parseReview(value: unknown): ReviewView {
  if (!isRecord(value) || !Array.isArray(value.files)) return { files: [] };
  const files = value.files.filter((f): f is ReviewView['files'][number] => isRecord(f) && typeof f.path === 'string' && typeof f.relPath === 'string');
  return {
    files,
    ...(value.busy === true ? { busy: true } : {}),
    ...(typeof value.error === 'string' ? { error: value.error } : {}),
  };
}

export function parseTabs(value: unknown): TabView[] {
  if (!Array.isArray(value)) return [];
  return value.filter((t): t is TabView => isRecord(t) && typeof t.id === 'string' && typeof t.title === 'string');
}

export function isEntry(value: unknown): value is Entry {
  return isRecord(value) && typeof value.id === 'string' && typeof value.kind === 'string';
}

/** Longest predicted prompt shown (the host bounds it too). */
const MAX_SUGGESTION_CHARS = 2000;

/** The agent's predicted prompt: a non-blank string, bounded; anything else is none. */
export function parseSuggestion(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  return text.length === 0 ? undefined : text.slice(0, MAX_SUGGESTION_CHARS);
}
