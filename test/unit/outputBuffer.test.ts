import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OutputBuffer } from '../../src/client/outputBuffer';

const BLOCK = 64 * 1024;

test('OutputBuffer copies what it is given: the caller may reuse its read buffer at once', () => {
  const buf = new OutputBuffer(100);
  const read = Buffer.from('hello ');
  buf.append(read);
  read.write('world!');
  buf.append(read);
  assert.deepEqual(buf.read(true), { text: 'hello world!', truncated: false });
});

test('OutputBuffer: a long stream through one reused chunk keeps the exact tail within keep + two blocks', () => {
  const limit = 300 * 1024;
  const buf = new OutputBuffer(limit);
  const chunk = Buffer.alloc(BLOCK);
  let expectedTail = '';
  for (let i = 0; i < 200; i++) {
    // Odd sizes, so chunks straddle blocks.
    const n = 1 + ((i * 7919) % BLOCK);
    chunk.fill(97 + (i % 26), 0, n);
    buf.append(chunk.subarray(0, n));
    expectedTail = (expectedTail + String.fromCharCode(97 + (i % 26)).repeat(n)).slice(-limit);
  }
  // Whole blocks scroll out: the oldest goes once the rest covers the limit without it.
  assert.ok(buf.peakBufferedBytes < limit + 2 * BLOCK, `peak ${buf.peakBufferedBytes}`);
  assert.ok(buf.bufferedBytes >= limit);
  assert.deepEqual(buf.read(true), { text: expectedTail, truncated: true });
});

test('OutputBuffer.since: continues where the last slice ended, holding back a split character', () => {
  const buf = new OutputBuffer(1000);
  buf.append(Buffer.from('ab\u00e9'.normalize()).subarray(0, 3)); // "ab" + the first byte of é
  const first = buf.since(0, 1000, false);
  assert.deepEqual(first, { text: 'ab', start: 0, end: 2 });
  buf.append(Buffer.from([0xa9, 0x21])); // the rest of é, then "!"
  assert.deepEqual(buf.since(first.end, 1000, false), { text: 'é!', start: 2, end: 5 });
  assert.deepEqual(buf.since(5, 1000, true), { text: '', start: 5, end: 5 });
});

test('OutputBuffer.since: more than maxBytes since the offset gives the last maxBytes, from a character boundary', () => {
  const buf = new OutputBuffer(1000);
  buf.append(Buffer.from('xéééé')); // 1 + 4 × 2 bytes
  const slice = buf.since(0, 5, false); // the last 5 bytes start inside an é
  assert.deepEqual(slice, { text: 'éé', start: 5, end: 9 });
});

test('OutputBuffer.since: bytes already dropped are skipped (start > offset), whole blocks at a time', () => {
  const buf = new OutputBuffer(10);
  for (let i = 0; i < 3; i++) buf.append(Buffer.alloc(BLOCK, 48 + i));
  const slice = buf.since(0, Number.MAX_SAFE_INTEGER, false);
  assert.equal(slice.start, 2 * BLOCK, 'only the last block is kept for a 10-byte limit');
  assert.equal(slice.text, '2'.repeat(BLOCK));
  assert.deepEqual(buf.read(true), { text: '2'.repeat(10), truncated: true });
});

test('OutputBuffer: keep > limit lets a reader look further back than the agent sees', () => {
  const buf = new OutputBuffer(4, 1024);
  buf.append(Buffer.from('0123456789'));
  assert.deepEqual(buf.read(false), { text: '6789', truncated: true });
  assert.equal(buf.since(0, 1024, false).text, '0123456789');
  assert.equal(buf.keep, 1024);
  assert.equal(new OutputBuffer(50, 10).keep, 50, 'never keeps less than the limit');
});

test('OutputBuffer.end: only what the agent may read stays, the agent sees no difference', () => {
  const buf = new OutputBuffer(10, 512 * 1024);
  for (let i = 0; i < 4; i++) buf.append(Buffer.alloc(BLOCK, 48 + i));
  assert.equal(buf.bufferedBytes, 4 * BLOCK);
  const before = buf.read(true);
  buf.end();
  assert.equal(buf.bufferedBytes, BLOCK, 'the last block holds the limit');
  assert.deepEqual(buf.read(true), before);
  assert.equal(buf.since(0, Number.MAX_SAFE_INTEGER, true).start, 3 * BLOCK);
});

test('OutputBuffer: a small output stays in a small first block, grown as it fills', () => {
  const buf = new OutputBuffer(1024 * 1024);
  let all = '';
  for (let i = 0; i < 3000; i++) {
    const line = `line ${i}\n`;
    all += line;
    buf.append(Buffer.from(line));
  }
  assert.equal(buf.read(true).text, all);
  assert.equal(buf.bufferedBytes, Buffer.byteLength(all));
  buf.end();
  buf.append(Buffer.from('late\n')); // a background child may still write after the end of the command
  assert.equal(buf.read(true).text, `${all}late\n`);
});

test('OutputBuffer.clear frees the bytes; later reads are empty and truncated', () => {
  const buf = new OutputBuffer(100);
  buf.append(Buffer.from('abc'));
  buf.clear();
  assert.equal(buf.bufferedBytes, 0);
  assert.deepEqual(buf.read(true), { text: '', truncated: true });
  assert.deepEqual(buf.since(0, 100, true), { text: '', start: 3, end: 3 });
});
