import { compileMatcher } from 'spoolforge/engine';
import { describe, expect, it } from 'vitest';
import { printedShare } from '../../src/grep/printed-share.js';

/** 1000 lines of 10 bytes (`line NNNN\n`), every 100th with `RARE` in place of `line`. */
const sample = Buffer.from(
  Array.from(
    { length: 1000 },
    (_, line) => `${line % 100 === 0 ? 'RARE' : 'line'} ${String(line).padStart(4, '0')}\n`,
  ).join(''),
);

/** The sample in uneven chunks, as reads hand it over. */
async function* chunks() {
  for (let position = 0; position < sample.length; position += 4093) {
    yield sample.subarray(position, position + 4093);
  }
}

describe('printedShare', () => {
  it('is the share of the bytes grep would print: selected lines, inverted, and with context', async () => {
    const matcher = compileMatcher('RARE');
    try {
      expect(await printedShare(chunks(), { matcher })).toBeCloseTo(0.01, 10);
      expect(await printedShare(chunks(), { matcher, invert: true })).toBeCloseTo(0.99, 10);
      // Ten matches, each with 3 + 2 lines of context of the average length.
      expect(await printedShare(chunks(), { matcher, before: 3, after: 2 })).toBeCloseTo(0.06, 10);
      expect(await printedShare(chunks(), { matcher, invert: true, after: 1 })).toBe(1);
    } finally {
      await matcher.dispose();
    }
  });

  it('asks a regex matcher in its worker, and is 0 for an empty sample', async () => {
    const matcher = compileMatcher('RA(R|X)E 0[0-4]');
    try {
      expect(await printedShare(chunks(), { matcher })).toBeCloseTo(0.005, 10);
      expect(await printedShare((async function* () {})(), { matcher })).toBe(0);
    } finally {
      await matcher.dispose();
    }
  });
});
