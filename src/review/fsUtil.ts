import * as fs from 'node:fs';
import * as nodePath from 'node:path';

/** Small file-system helpers shared by the checkpoint backends. */

/** `fn` over `items` with at most `limit` calls in flight; results in input order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * Visits the loose objects of an object directory laid out like git's (`ab/cdef…`, the id split
 * after two hex digits); `info/` and `pack/` are not objects and are skipped.
 */
export async function walkObjects(dir: string, visit: (id: string, file: string, size: number) => Promise<void>): Promise<void> {
  let fanout: fs.Dirent[];
  try {
    fanout = await fs.promises.readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const sub of fanout) {
    if (!sub.isDirectory() || !/^[0-9a-f]{2}$/.test(sub.name)) continue;
    const subDir = nodePath.join(dir, sub.name);
    for (const name of await fs.promises.readdir(subDir)) {
      if (!/^[0-9a-f]+$/.test(name)) continue; // temp files of an interrupted write
      const file = nodePath.join(subDir, name);
      const stat = await fs.promises.stat(file).catch(() => undefined);
      if (stat) await visit(sub.name + name, file, stat.size);
    }
  }
}

/** Writes through a temp file and a rename, so a crash never leaves a half-written file behind. */
export async function writeFileAtomic(file: string, data: string | Uint8Array, opts: { dirExists?: boolean } = {}): Promise<void> {
  if (!opts.dirExists) await fs.promises.mkdir(nodePath.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  await fs.promises.writeFile(tmp, data);
  await fs.promises.rename(tmp, file);
}

/** `lstat` that answers undefined for a missing path instead of throwing. */
export async function lstatOrUndefined(file: string): Promise<fs.Stats | undefined> {
  try {
    return await fs.promises.lstat(file);
  } catch {
    return undefined;
  }
}

/** `a/b` (root-relative, `/`-separated) → absolute path under root, and back. */
export function toAbs(root: string, relPath: string): string {
  return nodePath.join(root, ...relPath.split('/'));
}

/** The root-relative `/` path of `absPath`, or undefined when it is not strictly inside root. */
export function toRel(root: string, absPath: string): string | undefined {
  const rel = nodePath.relative(root, nodePath.resolve(absPath));
  if (!rel || rel.startsWith(`..${nodePath.sep}`) || rel === '..' || nodePath.isAbsolute(rel)) return undefined;
  return rel.split(nodePath.sep).join('/');
}
