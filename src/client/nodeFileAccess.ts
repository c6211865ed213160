import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import { BINARY_SNIFF_BYTES, FileAccessError } from './fsHandler';
import type { FileAccess } from './fsHandler';

/**
 * Plain-disk `FileAccess`: used by unit tests and as the fallback when no editor is around.
 * Text is UTF-8; a leading BOM is kept in the string (so a read-modify-write round trip keeps it).
 */
export class NodeFileAccess implements FileAccess {
  async readText(path: string): Promise<string> {
    let stat: fs.Stats;
    try {
      stat = await fs.promises.stat(path);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') throw new FileAccessError('notFound', path);
      throw err;
    }
    if (stat.isDirectory()) throw new FileAccessError('isDirectory', path);
    const bytes = await fs.promises.readFile(path);
    if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) throw new FileAccessError('binary', path);
    return new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
  }

  async writeText(path: string, text: string): Promise<void> {
    await fs.promises.mkdir(nodePath.dirname(path), { recursive: true });
    try {
      const stat = await fs.promises.stat(path);
      if (stat.isDirectory()) throw new FileAccessError('isDirectory', path);
    } catch (err) {
      if (err instanceof FileAccessError) throw err;
    }
    await fs.promises.writeFile(path, text, 'utf8');
  }
}
