import { countNewlines } from 'spoolforge/engine';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../helpers/seeded-random.js';

/** The obvious byte-by-byte count. */
function reference(bytes: Uint8Array, start: number, end: number): number {
  let count = 0;
  for (let index = start; index < end; index++) if (bytes[index] === 0x0a) count++;
  return count;
}

describe('countNewlines', () => {
  it('counts what a byte-by-byte loop counts, for ranges of every size and alignment', () => {
    const random = seededRandom(17);
    // Up to 600 KiB: past the SIMD counter's 128 KiB window, with ragged starts and ends.
    for (let trial = 0; trial < 300; trial++) {
      const length = Math.floor(random() ** 2 * 600 * 1024);
      const density = random();
      const bytes = new Uint8Array(length);
      for (let index = 0; index < length; index++) bytes[index] = random() < density ? 0x0a : 0x61;
      const start = Math.floor(random() * length);
      const end = start + Math.floor(random() * (length - start + 1));
      expect(countNewlines(bytes, start, end), `${length} [${start}, ${end})`).toBe(
        reference(bytes, start, end),
      );
    }
    expect(countNewlines(new Uint8Array(0))).toBe(0);
    expect(countNewlines(new Uint8Array(4096).fill(0x0a), 1, 4095)).toBe(4094);
  });
});
