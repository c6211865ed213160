import { createHash, randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { errorMessage } from '../util/errors';
import { ConversationStore } from './conversationStore';
import { INDEX_FILE, TRANSCRIPT_DIR } from './conversationStoreOptions';

/**
 * Where a workspace's conversations, checkpoints and permission rules live.
 *
 * VS Code keys a workspace's own storage (`storageUri`) by the folder's URI, and in code-server, in
 * a remote reached under another host alias or through a tunnel, that URI carries the address: the
 * same folder opened at another port found none of its conversations. So Tandem keeps them in its
 * global storage (the same under every address of the machine) in a folder named after the
 * workspace's path on its machine, and moves what an earlier version left in `storageUri` there,
 * once. Another address then finds the same folder.
 */
export interface FolderStorageOptions {
  /** The extension's global storage folder (`globalStorageUri`). */
  globalDir: string;
  /** VS Code's storage folder for this workspace URI (`storageUri`), where earlier versions kept everything. */
  uriDir: string | undefined;
  /** The workspace on its machine ({@link workspaceKey}); undefined when no folder is open. */
  key: string | undefined;
  warn(text: string): void;
}

export interface FolderStorage {
  /** The folder to keep everything in (created by whoever writes first). */
  dir: string;
  /** Settles once what an earlier version left under the URI's storage has been moved here. Never rejects. */
  ready: Promise<void>;
}

/** Written into the URI's storage once its content has moved, so it is never moved or merged twice. */
export const MOVED_MARKER = 'moved-to-folder-storage.json';
/** Written into each folder's storage: which workspace it belongs to (for people; and a collision check). */
export const FOLDER_FILE = 'folder.json';

/**
 * The key of a workspace on its machine: its `.code-workspace` file when it has one, else its
 * folders' real paths (symlinks resolved), sorted. Case-folded where file systems usually ignore case.
 */
export function workspaceKey(workspaceFile: string | undefined, folders: readonly string[], platform: NodeJS.Platform = process.platform): string | undefined {
  const real = (p: string) => {
    try {
      return fs.realpathSync.native(p);
    } catch {
      return path.resolve(p);
    }
  };
  const fold = (p: string) => (platform === 'win32' || platform === 'darwin' ? p.toLowerCase() : p);
  if (workspaceFile) return fold(real(workspaceFile));
  if (folders.length === 0) return undefined;
  return folders
    .map((f) => fold(real(f)))
    .sort()
    .join('\n');
}

/** The storage folder for `key` under `globalDir`: a short hash, so any path makes a valid name. */
export function folderStorageDir(globalDir: string, key: string | undefined): string {
  if (key === undefined) return path.join(globalDir, 'no-folder');
  return path.join(globalDir, 'folders', createHash('sha256').update(key).digest('hex').slice(0, 24));
}

export function openFolderStorage(opts: FolderStorageOptions): FolderStorage {
  const dir = folderStorageDir(opts.globalDir, opts.key);
  const ready = adopt(opts, dir).catch((err: unknown) =>
    opts.warn(`Could not move the conversations of this folder from ${opts.uriDir}: ${errorMessage(err)}`),
  );
  return { dir, ready };
}

async function adopt(opts: FolderStorageOptions, dir: string): Promise<void> {
  if (opts.key === undefined) return;
  const { uriDir } = opts;
  if (uriDir && path.resolve(uriDir) !== path.resolve(dir) && (await hasContent(uriDir)) && !(await exists(path.join(uriDir, MOVED_MARKER)))) {
    await ((await hasContent(dir)) ? merge(uriDir, dir, opts.warn) : move(uriDir, dir));
    await fs.promises.writeFile(path.join(uriDir, MOVED_MARKER), JSON.stringify({ movedTo: dir, at: new Date().toISOString() }));
  }
  if (!(await exists(path.join(dir, FOLDER_FILE)))) {
    await fs.promises.mkdir(dir, { recursive: true });
    await fs.promises.writeFile(path.join(dir, FOLDER_FILE), JSON.stringify({ key: opts.key }));
  }
}

/**
 * The whole folder at once: a rename when both are on one file system (the usual case: both are in
 * the user data folder), else a copy into a temporary folder renamed into place — either way no
 * reader ever sees half of it.
 */
async function move(from: string, to: string): Promise<void> {
  await fs.promises.mkdir(path.dirname(to), { recursive: true });
  try {
    await fs.promises.rename(from, to);
    await fs.promises.mkdir(from, { recursive: true });
    return;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
  }
  const staging = `${to}.moving-${randomUUID()}`;
  await fs.promises.cp(from, staging, { recursive: true });
  await fs.promises.rename(staging, to);
}

/**
 * Both have conversations (the folder was used under two addresses before this version): the
 * ones only the URI's storage has are added, with their transcripts; nothing is listed twice.
 * Checkpoints and rules come along only where the folder's storage has none of its own.
 */
async function merge(from: string, to: string, warn: (text: string) => void): Promise<void> {
  const source = new ConversationStore({ dir: from, warn });
  const target = new ConversationStore({ dir: to, warn });
  try {
    const [theirs, ours] = await Promise.all([source.loadIndex(), target.loadIndex()]);
    const known = new Set(ours.conversations.map((c) => c.id));
    const added = theirs.conversations.filter((c) => !known.has(c.id));
    if (added.length > 0) {
      await fs.promises.mkdir(path.join(to, TRANSCRIPT_DIR), { recursive: true });
      for (const meta of added) {
        const file = `${meta.id}.json`;
        await fs.promises.copyFile(path.join(from, TRANSCRIPT_DIR, file), path.join(to, TRANSCRIPT_DIR, file)).catch(() => undefined);
      }
      await target.saveIndex({ ...ours, conversations: [...ours.conversations, ...added].sort((a, b) => b.updatedAt - a.updatedAt) });
    }
  } finally {
    source.dispose();
    target.dispose();
  }
  for (const name of ['checkpoints', 'permission-rules.json']) {
    if (!(await exists(path.join(to, name))) && (await exists(path.join(from, name))))
      await fs.promises.cp(path.join(from, name), path.join(to, name), { recursive: true });
  }
}

async function exists(p: string): Promise<boolean> {
  return fs.promises.access(p).then(
    () => true,
    () => false,
  );
}

/** True when the folder holds anything Tandem keeps (an index, checkpoints or rules). */
async function hasContent(dir: string): Promise<boolean> {
  const names = await fs.promises.readdir(dir).catch(() => [] as string[]);
  return names.some((n) => n === INDEX_FILE || n === 'checkpoints' || n === 'permission-rules.json');
}
