import { readerChunks } from 'spoolforge/engine';
import { describe, expect, it } from 'vitest';
import { FileSpoolReader } from '../../src/spool/file-spool-reader.js';
// The pool is per module instance: these come from the same sources as the buffers they lend.
import { countNewlines } from '../../src/spool/newlines.js';
import { readerChunks as sourceReaderChunks } from '../../src/spool/reader-chunks.js';
import { countableBuffer } from '../../src/spool/simd-newline-count.js';
import { randomText, seededRandom } from '../helpers/seeded-random.js';
import { tempFile } from '../helpers/temp-files.js';

/** Lines of random length (some longer than the 64-byte buffers), CRLF and a last one without `\n`. */
function randomLines(seed: number): Buffer {
  const next = seededRandom(seed);
  const lines: string[] = [];
  for (let line = 0; line < 400; line++) {
    const length = Math.floor(next() ** 3 * 200);
    lines.push(`${randomText(next, 'ab é\r', length)}${next() < 0.2 ? '\r' : ''}`);
  }
  return Buffer.from(`${lines.join('\n')}tail without newline`);
}

async function chunksOf(path: string, options: Parameters<typeof readerChunks>[1]) {
  const reader = new FileSpoolReader(path);
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of readerChunks(reader, options)) chunks.push(Buffer.from(chunk));
    return chunks;
  } finally {
    await reader.close();
  }
}

describe('readerChunks with lineAligned', () => {
  it('ends every chunk at a line end unless its line outgrows the buffer, and loses nothing', async () => {
    for (const seed of [1, 2, 3]) {
      const bytes = randomLines(seed);
      const path = await tempFile(bytes);
      for (const [start, end] of [
        [0, bytes.length],
        [37, bytes.length - 5],
      ] as const) {
        const chunks = await chunksOf(path, {
          start,
          end,
          reuseBuffers: true,
          lineAligned: true,
          recycledChunkSize: 64,
        });
        expect(Buffer.concat(chunks).equals(bytes.subarray(start, end))).toBe(true);
        for (const [index, chunk] of chunks.slice(0, -1).entries()) {
          // A chunk without a newline is a piece of a line longer than the buffer.
          const whole = chunk.at(-1) === 0x0a || !chunk.includes(0x0a);
          expect(whole, `chunk ${index}: ${JSON.stringify(chunk.toString('latin1'))}`).toBe(true);
        }
        expect(chunks.some((chunk) => chunk.length < 64 && chunk.at(-1) === 0x0a)).toBe(true);
      }
    }
  });

  it('keeps a chunk intact until the one after the next is requested', async () => {
    const bytes = randomLines(4);
    const reader = new FileSpoolReader(await tempFile(bytes));
    try {
      const held: { chunk: Uint8Array; copy: Buffer }[] = [];
      for await (const chunk of readerChunks(reader, {
        reuseBuffers: true,
        lineAligned: true,
        recycledChunkSize: 64,
      })) {
        const previous = held.at(-1);
        if (previous) expect(Buffer.from(previous.chunk).equals(previous.copy)).toBe(true);
        held.push({ chunk, copy: Buffer.from(chunk) });
      }
      expect(Buffer.concat(held.map(({ copy }) => copy)).equals(bytes)).toBe(true);
    } finally {
      await reader.close();
    }
  });
});

describe('readerChunks with countInPlace', () => {
  it('reads into the counter pool, counts what countNewlines counts elsewhere, and hands the buffers back', async () => {
    const bytes = randomLines(5);
    const path = await tempFile(bytes);
    const reader = new FileSpoolReader(path);
    try {
      let inPool = 0;
      let newlines = 0;
      for await (const chunk of sourceReaderChunks(reader, {
        reuseBuffers: true,
        lineAligned: true,
        countInPlace: true,
        recycledChunkSize: 4096,
      })) {
        const { buffer, release } = countableBuffer(16);
        // A chunk shares its ArrayBuffer with the pool's buffers: it is counted where it lies.
        if (chunk.buffer === buffer.buffer) inPool++;
        release();
        newlines += countNewlines(chunk);
        // Counted in place and counted after a copy (an ordinary buffer) agree.
        expect(countNewlines(chunk)).toBe(countNewlines(Buffer.from(chunk)));
      }
      expect(inPool).toBeGreaterThan(0);
      expect(newlines).toBe(bytes.filter((byte) => byte === 0x0a).length);
      // An early stop gives the buffers back too: the pool still lends all of them.
      for (let round = 0; round < 20; round++) {
        for await (const _ of sourceReaderChunks(reader, {
          reuseBuffers: true,
          countInPlace: true,
        }))
          break;
      }
      const lent = Array.from({ length: 8 }, () => countableBuffer(1024 * 1024));
      expect(new Set(lent.map(({ buffer }) => buffer.buffer)).size).toBe(1);
      // Past its eight buffers, or above 1 MiB, the pool lends ordinary ones.
      const extra = countableBuffer(1024);
      const large = countableBuffer(1024 * 1024 + 1);
      expect(extra.buffer.buffer).not.toBe(lent[0]?.buffer.buffer);
      expect(large.buffer.buffer).not.toBe(lent[0]?.buffer.buffer);
      expect(large.buffer.length).toBe(1024 * 1024 + 1);
      for (const { release } of [...lent, extra, large]) release();
    } finally {
      await reader.close();
    }
  });
});
