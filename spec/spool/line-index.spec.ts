import { FileSpoolReader, MemorySpoolReader } from 'spoolforge';
import { LineIndex, readerChunks, seekLine, tailOffset } from 'spoolforge/engine';
import { describe, expect, it } from 'vitest';
import { counting } from '../helpers/counting-reader.js';
import { tempFile } from '../helpers/temp-files.js';

const numberedLines = (count: number) =>
  Array.from({ length: count }, (_, line) => `line ${line} ${'.'.repeat(line % 50)}\n`).join('');

describe('LineIndex', () => {
  it('counts lines as every query does', () => {
    const count = (text: string) => {
      const index = new LineIndex();
      index.append(Buffer.from(text));
      return index.lineCount;
    };
    expect([count(''), count('a\n'), count('a\nb'), count('\n\n'), count('x')]).toEqual([
      0, 1, 2, 2, 1,
    ]);
  });

  it('holds about one checkpoint per stride: 256 KiB per GiB at the default stride', async () => {
    const text = numberedLines(200_000);
    const index = new LineIndex();
    for await (const chunk of readerChunks(new MemorySpoolReader(text), { chunkSize: 10_007 })) {
      index.append(chunk);
    }
    const expected = Math.ceil(Buffer.byteLength(text) / LineIndex.defaultStride);
    expect(index.checkpointCount).toBeGreaterThanOrEqual(expected - 1);
    expect(index.checkpointCount).toBeLessThanOrEqual(expected + 1);
    expect(index.lineCount).toBe(200_000);
  });

  it('restores from a snapshot of arrays or of Float64Arrays, and keeps appending from there', () => {
    const text = Buffer.from(numberedLines(20_000));
    const whole = new LineIndex({ stride: 1024 });
    whole.append(text);
    const half = new LineIndex({ stride: 1024 });
    half.append(text.subarray(0, 200_000));
    const snapshot = half.snapshot();
    expect(snapshot.lines.length).toBeGreaterThan(64); // past the first growth of its arrays
    const restored = [
      LineIndex.fromSnapshot(structuredClone(snapshot)),
      LineIndex.fromSnapshot({
        ...snapshot,
        lines: Float64Array.from(snapshot.lines),
        offsets: Float64Array.from(snapshot.offsets),
      }),
    ];
    for (const index of restored) {
      index.append(text.subarray(200_000));
      expect(index.snapshot()).toEqual(whole.snapshot());
      for (const line of [0, 1_000, 9_999, 19_999]) {
        expect(index.checkpointFor(line)).toEqual(whole.checkpointFor(line));
      }
    }
  });

  it.each([
    ['a fractional line', { lines: [0, 2.5] }],
    ['lines out of order', { lines: [0, 9, 5], offsets: [0, 10, 20] }],
    ['NaN', { offsets: Float64Array.of(0, Number.NaN) }],
    ['an offset past the bytes covered', { offsets: [0, 5_000] }],
    ['arrays of different lengths', { offsets: [0] }],
  ])('rejects a snapshot with %s', (_, change) => {
    const snapshot = { stride: 64, byteLength: 100, newlineCount: 10, endsWithNewline: true };
    expect(() =>
      LineIndex.fromSnapshot({ ...snapshot, lines: [0, 5], offsets: [0, 50], ...change }),
    ).toThrow(expect.objectContaining({ code: 'E_INVALID_ARGUMENT' }));
  });

  it('finds a line near the end by reading at most one stride from its checkpoint', async () => {
    const text = numberedLines(300_000);
    const path = await tempFile(text);
    const file = new FileSpoolReader(path);
    const index = new LineIndex();
    for await (const chunk of readerChunks(file)) index.append(chunk);
    const { reader, counter } = counting(file);
    for (const line of [0, 1, 150_000, 299_999, 300_000]) {
      counter.bytes = 0;
      const offset = await seekLine(reader, index.checkpointFor(line), line, {
        windowSize: index.stride,
      });
      const expected = line === 300_000 ? Buffer.byteLength(text) : text.indexOf(`line ${line} `);
      expect(offset).toBe(Buffer.byteLength(text.slice(0, expected)));
      expect(counter.bytes).toBeLessThanOrEqual(index.stride);
    }
    await file.close();
  });

  it('tailOffset reads backwards only as far as the lines asked for', async () => {
    const text = numberedLines(300_000);
    const { reader, counter } = counting(new MemorySpoolReader(text));
    const start = await tailOffset(reader, 10);
    expect(text.slice(start)).toBe(numberedLines(300_000).split('\n').slice(-11).join('\n'));
    expect(counter.bytes).toBeLessThanOrEqual(64 * 1024 + 1);
    expect(await tailOffset(new MemorySpoolReader('a\nb'), 1)).toBe(2);
    expect(await tailOffset(new MemorySpoolReader('\n\n'), 1)).toBe(1);
    expect(await tailOffset(new MemorySpoolReader('a\n'), 5)).toBe(0);
  });
});

describe('FileSpoolReader', () => {
  it('opens lazily and names the path in errors', async () => {
    const reader = new FileSpoolReader('/nonexistent/spoolforge.log');
    await expect(reader.byteLength()).rejects.toMatchObject({
      code: 'E_FILE_NOT_FOUND',
      message: '/nonexistent/spoolforge.log: No such file or directory',
    });
    await expect(new FileSpoolReader('/tmp').read(0, 10)).rejects.toMatchObject({
      code: 'E_NOT_A_FILE',
    });
  });

  it('reads a range with positioned reads and describes itself', async () => {
    const path = await tempFile('0123456789');
    const reader = new FileSpoolReader(path);
    expect(Buffer.from(await reader.read(3, 4)).toString()).toBe('3456');
    expect(Buffer.from(await reader.read(8, 100)).toString()).toBe('89');
    expect(reader.describe()).toEqual({ kind: 'file', locator: path });
    await reader.close();
  });
});
