import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import { BINARY_SNIFF_BYTES } from '../client/fsHandler';
import type { RestoreStep } from './checkpointTypes';
import { CheckpointError } from './checkpointTypes';
import type { Compared } from './checkpointRecord';

/**
 * Turning stored bytes into restore steps and text, and applying a plan without an editor.
 * Text is UTF-8 with a BOM kept as U+FEFF (as `NodeFileAccess` reads it), so text → bytes is exact.
 */

/** Binary as git and `FsHandler` decide it: a NUL byte in the first 8 KB. */
export function isBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

const exact = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenient = new TextDecoder('utf-8', { ignoreBOM: true });

/** The text of these bytes when writing it back as UTF-8 gives the same bytes; otherwise undefined. */
export function decodeExact(bytes: Uint8Array): string | undefined {
  if (isBinary(bytes)) return undefined;
  try {
    return exact.decode(bytes);
  } catch {
    return undefined;
  }
}

/** The exact text of a file's bytes; throws `binary` when there is none (hunks need text). */
export function exactText(bytes: Uint8Array, path: string): string {
  const text = decodeExact(bytes);
  if (text === undefined) throw new CheckpointError('binary', path);
  return text;
}

/** Text for display and diffing: invalid UTF-8 becomes U+FFFD. */
export function decodeLenient(bytes: Uint8Array): string {
  return lenient.decode(bytes);
}

/** The step that puts `bytes` back at `path`: text when that is exact, else raw bytes. */
export function writeStep(path: string, relPath: string, bytes: Uint8Array): RestoreStep {
  const text = decodeExact(bytes);
  return text === undefined ? { kind: 'writeBytes', path, relPath, bytes } : { kind: 'write', path, relPath, text };
}

/**
 * Applies a restore plan straight to disk (tests, and use outside the editor). Missing folders are
 * created; deleting an already missing file is fine. Folders a deleted file leaves empty stay (git
 * and the checkpoints do not track folders).
 */
export async function applyPlanOnDisk(plan: readonly RestoreStep[]): Promise<void> {
  for (const step of plan) {
    switch (step.kind) {
      case 'write':
      case 'writeBytes':
        await fs.promises.mkdir(nodePath.dirname(step.path), { recursive: true });
        // A symlink put where the file was: replace the link, never write through it.
        if ((await fs.promises.lstat(step.path).catch(() => undefined))?.isSymbolicLink()) await fs.promises.rm(step.path);
        await fs.promises.writeFile(step.path, step.kind === 'write' ? Buffer.from(step.text, 'utf8') : step.bytes);
        break;
      case 'delete':
        await fs.promises.rm(step.path, { force: true });
        break;
      default: {
        const never: never = step;
        throw new Error(`unknown restore step ${JSON.stringify(never)}`);
      }
    }
  }
}

/** The steps that put the compared files back (`olds`: the earlier contents by id); unrestorable files have none. */
export function restoreSteps(compared: readonly Compared[], olds: ReadonlyMap<string, Uint8Array>): RestoreStep[] {
  const steps: RestoreStep[] = [];
  for (const { change, before } of compared) {
    if (!change.restorable) continue;
    if (before.kind === 'absent') steps.push({ kind: 'delete', path: change.path, relPath: change.relPath });
    else if (before.kind === 'file') {
      const bytes = olds.get(before.id);
      if (!bytes) throw new CheckpointError('missing', change.path);
      steps.push(writeStep(change.path, change.relPath, bytes));
    }
  }
  return steps;
}
