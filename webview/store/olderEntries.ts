/**
 * The older part of a split snapshot (`olderEntries`), put before the entries the panel already has.
 * Pure, so the store stays about routing messages.
 */
import type { Entry } from '../../src/protocol/messages';
import { isEntry } from './snapshotFields';

/**
 * The new order with `entries` first, adding them to `byId`. `reset` when some of them changed
 * since the snapshot (a permission answered): the newer version here stays, and the whole list is
 * laid out again instead of prepending.
 */
export function prependOlder(order: readonly string[], byId: Map<string, Entry>, entries: unknown): { order: string[]; reset: boolean; prepended: number } {
  if (!Array.isArray(entries)) throw new Error('Malformed olderEntries');
  const ids: string[] = [];
  let changedMeanwhile = false;
  for (const entry of entries) {
    if (!isEntry(entry)) continue;
    if (byId.has(entry.id)) changedMeanwhile = true;
    else byId.set(entry.id, entry);
    ids.push(entry.id);
  }
  if (!changedMeanwhile) return { order: ids.concat(order), reset: false, prepended: ids.length };
  const older = new Set(ids);
  return { order: ids.concat(order.filter((id) => !older.has(id))), reset: true, prepended: 0 };
}
