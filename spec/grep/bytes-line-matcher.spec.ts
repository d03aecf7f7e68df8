import { BytesLineMatcher } from 'spoolforge/engine';
import { describe, expect, it } from 'vitest';
import { randomText, seededRandom } from '../helpers/seeded-random.js';

/** Line starts of the lines containing `needle`, the slow obvious way. */
function reference(block: Buffer, needle: Buffer): number[] {
  const lines = block.toString('latin1').split('\n');
  // A final newline ends the last line; it does not start another.
  if (block.length === 0 || block.at(-1) === 0x0a) lines.pop();
  const starts: number[] = [];
  let position = 0;
  for (const line of lines) {
    if (Buffer.from(line, 'latin1').includes(needle)) starts.push(position);
    position += line.length + 1;
  }
  return starts;
}

describe('BytesLineMatcher', () => {
  it('selects exactly the lines containing the needle, on random text', () => {
    const next = seededRandom(11);
    // Dense alphabets make the rare-byte anchor common, so the whole-needle fallback runs too.
    for (const alphabet of ['qQuUoOtTaA_ \n\n\u00e0\u00c0xyz', 'aaaaaaaaaaaaab\n', 'QQQQu\n']) {
      for (const needle of ['Quota', 'QUO', 'a_t', 'Q', 'aab', 'ab\u00e0', 'QQu', 'zz']) {
        const needleBytes = Buffer.from(needle, 'latin1');
        const matcher = new BytesLineMatcher(needleBytes);
        for (let round = 0; round < 100; round++) {
          const text = randomText(next, alphabet, Math.floor(next() ** 2 * 3000));
          const block = Buffer.from(text, 'latin1');
          const expected = reference(block, needleBytes);
          expect(
            Array.from(matcher.matchingLines(block)),
            JSON.stringify({ needle, text }),
          ).toEqual(expected);
          expect(matcher.countMatchingLines(block)).toBe(expected.length);
        }
      }
    }
  });

  it('matches every line with an empty needle, and reads a block inside a larger buffer', () => {
    expect(new BytesLineMatcher(Buffer.alloc(0)).matchingLines(Buffer.from('a\n\nb'))).toEqual([
      0, 2, 3,
    ]);
    const whole = Buffer.from('xxxx\nFATAL One\nok\nno FATAL\n', 'latin1');
    const block = whole.subarray(5);
    expect(Array.from(new BytesLineMatcher(Buffer.from('FATAL')).matchingLines(block))).toEqual([
      0, 13,
    ]);
  });

  it("tells a line's matches (grep -o) as the literal's g regex does, overlaps and all", () => {
    const matches = (needle: string, line: string) => {
      const found: string[] = [];
      const bytes = Buffer.from(line);
      new BytesLineMatcher(Buffer.from(needle)).visitMatches(bytes, (start, end) =>
        found.push(`${start}-${end}`),
      );
      return found;
    };
    expect(matches('aa', 'aaaaa')).toEqual(['0-2', '2-4']);
    expect(matches('aba', 'abababa x aba')).toEqual(['0-3', '4-7', '10-13']);
    expect(matches('é', 'xé\u00e9é')).toEqual(['1-3', '3-5', '5-7']);
    expect(matches('', 'abc')).toEqual([]);
    expect(matches('q', 'abc')).toEqual([]);
  });
});
