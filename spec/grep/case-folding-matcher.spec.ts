import { CaseFoldingBytesLineMatcher } from 'spoolforge/engine';
import { describe, expect, it } from 'vitest';
import { randomText, seededRandom } from '../helpers/seeded-random.js';

/** Line starts of the lines containing `needle`, ASCII case folded, the slow obvious way. */
function reference(text: string, needle: string): number[] {
  const fold = (value: string) => value.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
  const starts: number[] = [];
  let position = 0;
  for (const line of text.split('\n')) {
    if (fold(line).includes(fold(needle))) starts.push(position);
    position += Buffer.byteLength(line, 'latin1') + 1;
  }
  return starts;
}

describe('CaseFoldingBytesLineMatcher', () => {
  it('selects exactly the lines a case-folded search selects, on random text', () => {
    const next = seededRandom(7);
    const alphabet = 'qQuUoOtTaA_ \n\n\u00e0\u00c0xyz';
    for (const needle of ['quota', 'QUO', 'a_t', 'Q', 'ta q', 'zz']) {
      const matcher = new CaseFoldingBytesLineMatcher(needle);
      for (let round = 0; round < 200; round++) {
        const text = randomText(next, alphabet, Math.floor(next() * 300));
        const block = Buffer.from(text, 'latin1');
        expect(Array.from(matcher.matchingLines(block)), JSON.stringify({ needle, text })).toEqual(
          reference(text, needle),
        );
      }
    }
  });

  it('reads a block at an offset inside a larger buffer', () => {
    const whole = Buffer.from('xxxx\nerror One\nok\nERROR two\n', 'latin1');
    const block = whole.subarray(5);
    expect(Array.from(new CaseFoldingBytesLineMatcher('error').matchingLines(block))).toEqual([
      0, 13,
    ]);
  });
});
