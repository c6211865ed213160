import * as l10n from '@vscode/l10n';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
// node-tar and yauzl: the archive readers npm and vsce themselves use. Both refuse entries that
// would land outside the target folder (absolute paths, `..`), which a hand-written reader would
// have to get right for every tar dialect (ustar, pax, GNU long names) and zip quirk.
import * as tar from 'tar';
import * as yauzl from 'yauzl';

/**
 * Unpacks a downloaded agent into a folder: tar.gz/tgz (and plain tar), zip, tar.bz2 (through the
 * system `tar`, since Node has no bzip2), or a raw executable. The kind is read from the file's
 * first bytes, because release URLs do not always say (redirects, extension-less names).
 */

export type ArchiveKind = 'tar.gz' | 'tar' | 'tar.bz2' | 'zip' | 'raw';

/** Limits against archive bombs: agents are tens to a few hundred MB unpacked. */
const MAX_ENTRIES = 50_000;
const MAX_UNPACKED_BYTES = 4 * 1024 * 1024 * 1024;

export class ArchiveError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ArchiveError';
  }
}

/** The kind from the magic bytes; the URL's extension only breaks the tie for unknown content. */
export async function detectArchiveKind(file: string, url = ''): Promise<ArchiveKind> {
  const handle = await fs.promises.open(file, 'r');
  const head = Buffer.alloc(512);
  try {
    await handle.read(head, 0, 512, 0);
  } finally {
    await handle.close();
  }
  if (head[0] === 0x1f && head[1] === 0x8b) return 'tar.gz';
  if (head[0] === 0x50 && head[1] === 0x4b && (head[2] === 0x03 || head[2] === 0x05)) return 'zip';
  if (head.subarray(0, 3).toString('latin1') === 'BZh') return 'tar.bz2';
  if (head.subarray(257, 262).toString('latin1') === 'ustar') return 'tar';
  const pathname = safePathname(url).toLowerCase();
  if (/\.(tar\.gz|tgz)$/.test(pathname)) return 'tar.gz';
  if (pathname.endsWith('.zip')) return 'zip';
  return 'raw';
}

/**
 * Unpacks `file` into `dest` (created if missing). `rawName` is the file name a raw executable gets.
 * Throws {@link ArchiveError} for unsafe or oversized content.
 */
export async function unpackArchive(file: string, kind: ArchiveKind, dest: string, rawName: string): Promise<void> {
  await fs.promises.mkdir(dest, { recursive: true });
  switch (kind) {
    case 'tar.gz':
    case 'tar':
      return unpackTar(file, dest);
    case 'tar.bz2':
      return unpackWithSystemTar(file, dest);
    case 'zip':
      return unpackZip(file, dest);
    case 'raw':
      await fs.promises.copyFile(file, path.join(dest, path.basename(rawName)));
      return;
  }
}

async function unpackTar(file: string, dest: string): Promise<void> {
  let entries = 0;
  let bytes = 0;
  let tooLarge = false;
  const extract = tar.x({
    file,
    cwd: dest,
    // Warnings (an entry with `..`, an absolute path) become errors: better no agent than half of one.
    strict: true,
    preserveOwner: false,
    filter: (_p, entry) => {
      entries++;
      bytes += 'size' in entry && typeof entry.size === 'number' ? entry.size : 0;
      // Throwing here would escape node-tar's parser; skip the rest and fail afterwards.
      tooLarge ||= entries > MAX_ENTRIES || bytes > MAX_UNPACKED_BYTES;
      return !tooLarge;
    },
  });
  try {
    await extract;
  } catch (err) {
    throw new ArchiveError(l10n.t('The tar archive was refused: {0}', (err as Error).message));
  }
  if (tooLarge) throw new ArchiveError(l10n.t('The archive is too large to unpack.'));
}

/** bsdtar (macOS, Windows 10+) and GNU tar both read bzip2 and refuse `..` members by default. */
async function unpackWithSystemTar(file: string, dest: string): Promise<void> {
  try {
    await promisify(execFile)('tar', ['-xjf', file, '-C', dest], { timeout: 10 * 60_000, windowsHide: true });
  } catch (err) {
    throw new ArchiveError(l10n.t('Could not unpack the .tar.bz2 archive with the system tar: {0}', (err as Error).message));
  }
}

async function unpackZip(file: string, dest: string): Promise<void> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true, autoClose: true }, (err, z) => (err ? reject(err) : resolve(z))),
  );
  const root = await fs.promises.realpath(dest);
  let entries = 0;
  let bytes = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      const fail = (err: unknown): void => {
        zip.close();
        reject(err instanceof Error ? err : new Error(String(err)));
      };
      zip.on('error', fail);
      zip.on('end', () => resolve());
      zip.on('entry', (entry: yauzl.Entry) => {
        entries++;
        bytes += entry.uncompressedSize;
        if (entries > MAX_ENTRIES || bytes > MAX_UNPACKED_BYTES) return fail(new ArchiveError(l10n.t('The archive is too large to unpack.')));
        writeZipEntry(zip, entry, root).then(() => zip.readEntry(), fail);
      });
      zip.readEntry();
    });
  } catch (err) {
    // yauzl's own checks (absolute paths, `..`) arrive as plain Errors.
    throw err instanceof ArchiveError ? err : new ArchiveError(l10n.t('The zip archive is invalid: {0}', (err as Error).message));
  }
}

async function writeZipEntry(zip: yauzl.ZipFile, entry: yauzl.Entry, root: string): Promise<void> {
  // yauzl has already rejected absolute names and `..` segments; this is the belt to its braces.
  const target = insideOrThrow(root, entry.fileName);
  if (entry.fileName.endsWith('/')) {
    await fs.promises.mkdir(target, { recursive: true });
    return;
  }
  await fs.promises.mkdir(path.dirname(target), { recursive: true });
  // Unix permissions (and the file type) live in the high 16 bits when the zip was made on Unix.
  const unixMode = entry.versionMadeBy >> 8 === 3 ? entry.externalFileAttributes >>> 16 : 0;
  const stream = await new Promise<NodeJS.ReadableStream>((resolve, reject) => zip.openReadStream(entry, (err, s) => (err ? reject(err) : resolve(s))));
  if ((unixMode & 0o170000) === 0o120000) {
    const chunks: Buffer[] = [];
    for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
    const linkTarget = Buffer.concat(chunks).toString('utf8');
    // A link may only point inside the folder, or writing "through" it later would escape it.
    if (path.isAbsolute(linkTarget))
      throw new ArchiveError(l10n.t("Refusing the link {0} → {1}: it points outside the agent's folder.", entry.fileName, linkTarget));
    insideOrThrow(root, path.join(path.dirname(entry.fileName), linkTarget));
    await fs.promises.symlink(linkTarget, target);
    return;
  }
  await pipeline(stream, fs.createWriteStream(target, { mode: unixMode & 0o777 || 0o644 }));
}

function insideOrThrow(root: string, relative: string): string {
  const target = path.resolve(root, relative);
  if (target !== root && !target.startsWith(root + path.sep))
    throw new ArchiveError(l10n.t("Refusing {0}: it would land outside the agent's folder.", relative));
  return target;
}

/**
 * The absolute path of `cmd` inside `dir`, following links only within it; undefined when there is
 * no such file. Some archives wrap everything in one top folder: `cmd` is then looked for inside it.
 */
export async function locateExecutable(dir: string, cmd: string): Promise<string | undefined> {
  const root = await fs.promises.realpath(dir);
  const direct = await fileInside(root, cmd);
  if (direct) return direct;
  const children = await fs.promises.readdir(root, { withFileTypes: true });
  if (children.length === 1 && children[0].isDirectory()) return fileInside(root, path.join(children[0].name, cmd));
  return undefined;
}

async function fileInside(root: string, relative: string): Promise<string | undefined> {
  try {
    const real = await fs.promises.realpath(path.resolve(root, relative));
    if (!real.startsWith(root + path.sep)) return undefined;
    return (await fs.promises.stat(real)).isFile() ? real : undefined;
  } catch {
    return undefined;
  }
}

/** rwx for the owner, r-x for the rest; a no-op on Windows, which has no execute bit. */
export async function markExecutable(file: string, platform: NodeJS.Platform = process.platform): Promise<void> {
  if (platform === 'win32') return;
  const { mode } = await fs.promises.stat(file);
  await fs.promises.chmod(file, mode | 0o755);
}

function safePathname(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}
