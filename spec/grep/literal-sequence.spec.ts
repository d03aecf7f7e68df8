import { compileMatcher } from 'spoolforge/engine';
import { describe, expect, it } from 'vitest';
import { literalSequence } from '../../src/grep/literal-sequence-line-matcher.js';
import { randomText, seededRandom } from '../helpers/seeded-random.js';

describe('literalSequence', () => {
  it.each([
    ['ERROR .*timeout', ['ERROR ', 'timeout']],
    ['.*disk', ['disk']],
    ['a.*.*b.*', ['a', 'b']],
    ['req=1 .*GET /api', ['req=1 ', 'GET /api']],
    ['a.*?b', undefined],
    ['a\\.*b', undefined],
    ['\\[error\\].*checksum', ['[error]', 'checksum']],
    ['a\\\\.*b', ['a\\', 'b']],
    ['[.*]x', undefined],
    ['a|b.*c', undefined],
    ['é.*x', undefined],
    ['^ERROR.*timeout', undefined],
    ['a.+b', undefined],
  ])('%j is %j', (pattern, expected) => {
    expect(literalSequence(pattern)).toEqual(expected);
  });
});

describe('a regex of literals joined by .*', () => {
  it('selects exactly the lines the regex selects, on random text', async () => {
    const next = seededRandom(5);
    // The prefilter searches the literal with the rarest byte ('b' over 'a'): the first one
    // here but in 'a.*b' and 'a a.*b.*a'.
    for (const pattern of [
      'ab.*ba',
      'aba.*bab',
      'a.*a.*a',
      '.*bb',
      'ab.*',
      'a b.*\r',
      'a.*b',
      'a a.*b.*a',
    ]) {
      const matcher = compileMatcher(pattern);
      const regex = new RegExp(pattern, 's');
      for (let round = 0; round < 200; round++) {
        const text = randomText(next, 'ab \r\n', Math.floor(next() * 400));
        const block = Buffer.from(text, 'latin1');
        const expected: number[] = [];
        let start = 0;
        for (const line of text.split('\n')) {
          if (start < text.length && regex.test(line)) expected.push(start);
          start += line.length + 1;
        }
        expect(
          Array.from(await matcher.matchingLines(block)),
          JSON.stringify({ pattern, text }),
        ).toEqual(expected);
      }
      await matcher.dispose();
    }
  });

  it('still refuses an invalid regex', () => {
    expect(() => compileMatcher('.**a')).toThrow(
      expect.objectContaining({ code: 'E_REGEX_INVALID' }),
    );
  });
});
