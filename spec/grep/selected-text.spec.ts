import { describe, expect, it } from 'vitest';
import { selectedText } from '../../src/grep/selected-text.js';
import { selectStarts } from '../../src/spool/simd-kernels.js';
import { countableBuffer } from '../../src/spool/simd-newline-count.js';
import { seededRandom } from '../helpers/seeded-random.js';

/** The obvious answer: the chosen lines (or the others), each with a `\n`, one by one. */
function reference(block: Buffer, starts: number[], invert: boolean): Buffer {
  const chosen = new Set(starts);
  const parts: Buffer[] = [];
  for (let start = 0; start < block.length; ) {
    const found = block.indexOf(0x0a, start);
    const end = found === -1 ? block.length : found;
    if (chosen.has(start) !== invert) parts.push(block.subarray(start, end), Buffer.from('\n'));
    start = end + 1;
  }
  return Buffer.concat(parts);
}

function lineStarts(block: Buffer): number[] {
  const starts: number[] = [];
  for (let start = 0; start < block.length; start = block.indexOf(0x0a, start) + 1) {
    starts.push(start);
    if (block.indexOf(0x0a, start) === -1) break;
  }
  return starts;
}

describe('selectedText', () => {
  it('copies the chosen lines, or the others, as a line-by-line copy does', () => {
    const random = seededRandom(53);
    const { buffer: pooled, release } = countableBuffer(1024 * 1024);
    try {
      for (let trial = 0; trial < 400; trial++) {
        // Short lines, lines of 15-17 bytes (the copy's step), long ones, CRLF and invalid UTF-8.
        const lineLength = [2, 16, 17, 300, 5000][trial % 5] as number;
        const size = Math.floor(random() * 40_000);
        const bytes = Buffer.alloc(size);
        for (let index = 0; index < size; index++) {
          bytes[index] =
            random() < 1 / lineLength ? 0x0a : ([0x61, 0x0d, 0xff, 0x20][index % 4] as number);
        }
        // Half the blocks end without a `\n` (the end of an input).
        if (trial % 2 === 0 && size > 0) bytes[size - 1] = 0x0a;
        const offset = 1 + Math.floor(random() * 40);
        const block = pooled.subarray(offset, offset + size);
        block.set(bytes);
        const share = [0, 0.02, 0.5, 1][trial % 4] as number;
        const starts = lineStarts(bytes).filter(() => random() < share);
        for (const invert of [false, true]) {
          const label = `trial ${trial}, invert ${invert}`;
          const text = selectedText(block, starts, invert);
          expect(Buffer.from(text ?? []).equals(reference(bytes, starts, invert)), label).toBe(
            true,
          );
        }
      }
    } finally {
      release();
    }
  });

  it('takes more starts than its area holds, in batches', () => {
    const { buffer: pooled, release } = countableBuffer(1024 * 1024);
    try {
      // 300,000 lines of 2 bytes, every other one chosen: 150,000 starts, over two batches.
      const bytes = Buffer.from('a\nb\n'.repeat(150_000));
      const block = pooled.subarray(0, bytes.copy(pooled));
      const starts = lineStarts(bytes).filter((_, index) => index % 2 === 1);
      expect(starts.length).toBeGreaterThan(selectStarts.entries);
      expect(selectedText(block, starts, false)?.toString()).toBe('b\n'.repeat(150_000));
      expect(selectedText(block, starts, true)?.toString()).toBe('a\n'.repeat(150_000));
    } finally {
      release();
    }
  });

  it('leaves a block outside the kernels memory to the caller', () => {
    expect(selectedText(Buffer.from('a\nb\n'), [0], false)).toBeUndefined();
  });
});
