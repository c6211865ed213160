/** Storage comes in blocks of this size, reused as the output scrolls past. */
const BLOCK_BYTES = 64 * 1024;
/** The first block starts this small and doubles, so a command printing a line costs little. */
const FIRST_BLOCK_BYTES = 1024;

const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/** Text decoded from the buffer, with where it starts and ends in the whole stream (byte offsets). */
export interface OutputSlice {
  text: string;
  /** Offset of the first byte decoded. */
  start: number;
  /** Offset just past the last byte decoded: where the next slice continues. */
  end: number;
}

/**
 * Keeps the last bytes of a byte stream (a terminal's merged stdout+stderr): at least `keep`, of
 * which the agent sees the last `limit` (`keep` may be larger, for readers that look further back).
 *
 * Bytes are copied in (so the caller may reuse its read buffer) and stored raw in fixed blocks;
 * a block that scrolls out is reused for new output, so a command printing gigabytes allocates
 * nothing once the buffer is full. Text is decoded only when read, which also makes cutting at a
 * UTF-8 character boundary exact. Whole blocks scroll out, so fewer than `keep + 128 KiB` bytes are
 * ever held.
 */
export class OutputBuffer {
  /** Every block but the last is full; the last holds `tailUsed` bytes. */
  private blocks: Buffer[] = [];
  private tailUsed = 0;
  /** A block that scrolled out, kept for the next one needed. */
  private spare: Buffer | undefined;
  private stored = 0;
  /** Bytes dropped from the front: the stream offset of the first byte held. */
  private dropped = 0;
  private peak = 0;
  private keepBytes: number;

  constructor(
    readonly limit: number,
    keep = limit,
  ) {
    if (!Number.isInteger(limit) || limit < 0) throw new RangeError(`Invalid byte limit: ${limit}`);
    this.keepBytes = Math.max(limit, keep);
  }

  /** Bytes kept at least (the agent's `limit`, or more while other readers may look back further). */
  get keep(): number {
    return this.keepBytes;
  }

  /** Bytes currently held (what memory the output costs). */
  get bufferedBytes(): number {
    return this.stored;
  }

  /** The most bytes ever held at once; tests use it to prove the memory bound. */
  get peakBufferedBytes(): number {
    return this.peak;
  }

  /** True once more than `limit` bytes were written: the start of the output is (or will be) cut. */
  get truncated(): boolean {
    return this.totalBytes > this.limit;
  }

  /** Every byte ever appended: the stream offset of the next byte. */
  get totalBytes(): number {
    return this.stored + this.dropped;
  }

  append(chunk: Uint8Array): void {
    let from = 0;
    while (from < chunk.length) {
      let tail = this.blocks[this.blocks.length - 1];
      if (!tail || this.tailUsed === tail.length) tail = this.grow(chunk.length - from);
      const n = Math.min(tail.length - this.tailUsed, chunk.length - from);
      tail.set(chunk.subarray(from, from + n), this.tailUsed);
      this.tailUsed += n;
      this.stored += n;
      from += n;
      if (this.stored > this.peak) this.peak = this.stored;
      this.trim();
    }
  }

  /**
   * The retained text: at most `limit` bytes of UTF-8, starting at a character boundary. While the
   * producer is still running (`complete` false) an incomplete trailing character is held back —
   * its remaining bytes are on their way. `truncated` is true when any earlier output was dropped.
   */
  read(complete: boolean): { text: string; truncated: boolean } {
    const { text, start } = this.since(0, this.limit, complete);
    // Invalid bytes decode to U+FFFD (3 bytes each), which could push the text past the limit.
    const fitted = Buffer.byteLength(text, 'utf8') > this.limit ? trimStartToBytes(text, this.limit) : text;
    return { text: fitted, truncated: start > 0 };
  }

  /**
   * The text from stream offset `offset` on, or only its last `maxBytes` when there is more (or
   * when the start was dropped already: then `start` > `offset`). A slice that does not continue
   * a previous one starts at a character boundary; an incomplete trailing character is held back
   * unless `complete` (the producer has ended: it decodes as U+FFFD).
   */
  since(offset: number, maxBytes: number, complete: boolean): OutputSlice {
    const total = this.totalBytes;
    const cut = Math.max(offset, this.dropped, total - maxBytes);
    let start = cut;
    // Skip continuation bytes (10xxxxxx) so the text never opens with half a character (the cut,
    // or an earlier block drop, may have split one). A slice continuing the last one starts whole.
    if (cut > offset || offset === 0) while (start < total && start - cut < 3 && (this.byteAt(start) & 0xc0) === 0x80) start++;
    const end = complete ? total : this.completeEnd(start, total);
    return { text: end > start ? utf8.decode(this.bytes(start, end)) : '', start, end };
  }

  /**
   * The stream has ended and readers looking back past `limit` are done: from now on only what the
   * agent may read is kept, and no block is held for reuse.
   */
  end(): void {
    this.keepBytes = this.limit;
    this.trim();
    this.spare = undefined;
  }

  /** Frees the memory; the buffer reads as empty (and truncated if anything was written) afterwards. */
  clear(): void {
    this.dropped += this.stored;
    this.stored = 0;
    this.blocks = [];
    this.spare = undefined;
    this.tailUsed = 0;
  }

  /** A new tail block with room for at least one byte (up to `wanted`). */
  private grow(wanted: number): Buffer {
    const first = this.blocks.length === 1 ? this.blocks[0] : undefined;
    if (first && first.length < BLOCK_BYTES) {
      // Still the small first block: double it (a copy of at most 32 KiB, a handful of times).
      const bigger = Buffer.allocUnsafeSlow(Math.min(BLOCK_BYTES, Math.max(first.length * 2, this.tailUsed + wanted)));
      first.copy(bigger, 0, 0, this.tailUsed);
      this.blocks[0] = bigger;
      return bigger;
    }
    const block =
      this.blocks.length === 0 && !this.spare
        ? Buffer.allocUnsafeSlow(Math.min(BLOCK_BYTES, Math.max(FIRST_BLOCK_BYTES, wanted)))
        : (this.spare ?? Buffer.allocUnsafeSlow(BLOCK_BYTES));
    this.spare = undefined;
    this.blocks.push(block);
    this.tailUsed = 0;
    return block;
  }

  /** Drops whole blocks from the front while the rest still holds `keep` bytes. */
  private trim(): void {
    while (this.blocks.length > 1 && this.stored - this.blocks[0].length >= this.keepBytes) {
      const first = this.blocks.shift() as Buffer;
      this.stored -= first.length;
      this.dropped += first.length;
      this.spare = first;
    }
  }

  private byteAt(offset: number): number {
    const i = offset - this.dropped;
    const block = Math.floor(i / BLOCK_BYTES);
    return this.blocks.length === 1 ? this.blocks[0][i] : this.blocks[block][i - block * BLOCK_BYTES];
  }

  /** Bytes [start, end) of the stream: a view when they lie in one block, else one copy. */
  private bytes(start: number, end: number): Uint8Array {
    const from = start - this.dropped;
    const to = end - this.dropped;
    if (this.blocks.length === 1) return this.blocks[0].subarray(from, to);
    const first = Math.floor(from / BLOCK_BYTES);
    const last = Math.floor((to - 1) / BLOCK_BYTES);
    if (first === last) return this.blocks[first].subarray(from - first * BLOCK_BYTES, to - first * BLOCK_BYTES);
    const out = Buffer.allocUnsafe(to - from);
    for (let b = first, at = 0; b <= last; b++) {
      const lo = b === first ? from - b * BLOCK_BYTES : 0;
      const hi = b === last ? to - b * BLOCK_BYTES : BLOCK_BYTES;
      at += this.blocks[b].copy(out, at, lo, hi);
    }
    return out;
  }

  /** End offset that excludes a trailing incomplete UTF-8 sequence. */
  private completeEnd(start: number, total: number): number {
    for (let i = total - 1; i >= Math.max(start, total - 4); i--) {
      const b = this.byteAt(i);
      if ((b & 0xc0) === 0x80) continue; // continuation: keep looking for the lead byte
      const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
      return total - i >= need ? total : i;
    }
    return total;
  }
}

/** Drops whole characters from the start until the UTF-8 size fits `limit`. */
function trimStartToBytes(text: string, limit: number): string {
  let excess = Buffer.byteLength(text, 'utf8') - limit;
  let i = 0;
  while (excess > 0 && i < text.length) {
    const cp = text.codePointAt(i) as number;
    const size = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    excess -= size;
    i += cp > 0xffff ? 2 : 1;
  }
  return text.slice(i);
}
