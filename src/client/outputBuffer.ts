/** Blocks are at least this big (except the newest), so tiny writes do not cost one Buffer each. */
const BLOCK_BYTES = 64 * 1024;

/**
 * Keeps the last `limit` bytes of a byte stream (a terminal's merged stdout+stderr).
 *
 * Bytes are stored raw and decoded only when read, which makes cutting at a UTF-8 character boundary
 * exact. Memory stays bounded whatever the producer writes: whole blocks fall off the front as soon
 * as the rest still covers `limit`, so at most `limit + 2 × max(chunk, 64 KiB)` bytes are held.
 */
export class OutputBuffer {
  private blocks: Buffer[] = [];
  /** Spare room at the end of the newest block, when it was allocated by us for coalescing. */
  private tail: Buffer | undefined;
  private tailUsed = 0;
  private stored = 0;
  private dropped = 0;
  private peak = 0;

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 0) throw new RangeError(`Invalid byte limit: ${limit}`);
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

  /** Every byte ever appended. */
  get totalBytes(): number {
    return this.stored + this.dropped;
  }

  append(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    if (chunk.length >= BLOCK_BYTES) {
      this.sealTail();
      this.blocks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    } else {
      if (!this.tail || this.tailUsed + chunk.length > this.tail.length) {
        this.sealTail();
        this.tail = Buffer.allocUnsafe(BLOCK_BYTES);
        this.tailUsed = 0;
        this.blocks.push(this.tail.subarray(0, 0));
      }
      this.tail.set(chunk, this.tailUsed);
      this.tailUsed += chunk.length;
      this.blocks[this.blocks.length - 1] = this.tail.subarray(0, this.tailUsed);
    }
    this.stored += chunk.length;
    if (this.stored > this.peak) this.peak = this.stored;
    this.trim();
  }

  /**
   * The retained text: at most `limit` bytes of UTF-8, starting at a character boundary. While the
   * producer is still running (`complete` false) an incomplete trailing character is held back —
   * its remaining bytes are on their way. `truncated` is true when any earlier output was dropped.
   */
  read(complete: boolean): { text: string; truncated: boolean } {
    const bytes = this.blocks.length === 1 ? this.blocks[0] : Buffer.concat(this.blocks, this.stored);
    const cut = Math.max(0, bytes.length - this.limit);
    let start = cut;
    // Skip continuation bytes (10xxxxxx) so the text never opens with half a character (the cut,
    // or an earlier block drop, may have split one).
    while (start < bytes.length && start - cut < 3 && (bytes[start] & 0xc0) === 0x80) start++;
    const end = complete ? bytes.length : completeEnd(bytes, start);
    let text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes.subarray(start, end));
    // Invalid bytes decode to U+FFFD (3 bytes each), which could push the text past the limit.
    if (Buffer.byteLength(text, 'utf8') > this.limit) text = trimStartToBytes(text, this.limit);
    return { text, truncated: this.dropped + start > 0 };
  }

  /** Frees the memory; the buffer reads as empty (and truncated if anything was written) afterwards. */
  clear(): void {
    this.dropped += this.stored;
    this.stored = 0;
    this.blocks = [];
    this.tail = undefined;
    this.tailUsed = 0;
  }

  private sealTail(): void {
    // A mostly empty coalescing block would pin 64 KiB for a few bytes: keep an exact copy instead.
    if (this.tail && this.tailUsed < BLOCK_BYTES / 2 && this.blocks.length > 0) {
      this.blocks[this.blocks.length - 1] = Buffer.from(this.tail.subarray(0, this.tailUsed));
    }
    this.tail = undefined;
    this.tailUsed = 0;
  }

  private trim(): void {
    while (this.blocks.length > 1 && this.stored - this.blocks[0].length >= this.limit) {
      const first = this.blocks.shift() as Buffer;
      this.stored -= first.length;
      this.dropped += first.length;
    }
  }
}

/** End offset that excludes a trailing incomplete UTF-8 sequence. */
function completeEnd(bytes: Uint8Array, start: number): number {
  const n = bytes.length;
  for (let i = n - 1; i >= Math.max(start, n - 4); i--) {
    const b = bytes[i];
    if ((b & 0xc0) === 0x80) continue; // continuation: keep looking for the lead byte
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return n - i >= need ? n : i;
  }
  return n;
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
