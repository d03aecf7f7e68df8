import { describe, expect, it } from 'vitest';
import { lineLocalRegex, matchesAsciiOnly } from '../../src/grep/line-local-regex.js';
import { regexCountLines, regexMatchingLines } from '../../src/grep/regex-lines.js';
import { referenceMatchingLines } from '../helpers/reference-lines.js';
import { randomText, seededRandom } from '../helpers/seeded-random.js';

const patterns = [
  'ab',
  '^ab',
  'ba$',
  '^$',
  '^',
  '$',
  'a.b',
  'a.*b$',
  '^a[^b]*$',
  '[^]b',
  '\\sb',
  'a\\s*$',
  '\\Db',
  'a\\W',
  '\\bab\\b',
  '\\Bb',
  'a{2,}',
  '(?<![A-Za-z0-9_])(?:ab)(?![A-Za-z0-9_])',
  '(?<=a)b',
  '(?<!a)b$',
  '(?=\\sa)',
  'b(?!a)$',
  '[ab]\\r$',
  '\\r',
  'é.',
  '\\ufffd',
  'x*',
  '(a|b )+$',
  '^(?:a|b)\\b',
  'b\\b',
  '\\B',
  '(?<![a-z])(?![a-z])',
  'a\\b.?',
  '(?<![A-Za-z0-9_])(?:b)(?![A-Za-z0-9_])',
];

describe('matchesAsciiOnly', () => {
  it.each([
    ['\\d{4}-\\d{2}', true],
    ['(?<![A-Za-z0-9_])(?:order)(?![A-Za-z0-9_])', true],
    ['a\\.b\\x41', true],
    ['a.c', false],
    ['a[^b]c', false],
    ['a\\sb', false],
    ['\\W', false],
    ['caf\\xe9', false],
    ['café', false],
    ['\\B', false],
    ['(?<![a-z])(?![a-z])', false],
  ])('%j: %s', (source, expected) => {
    expect(matchesAsciiOnly(new RegExp(source, 's'))).toBe(expected);
  });
});

describe('lineLocalRegex', () => {
  it.each([
    ['a\\nb'],
    ['[\\n]'],
    ['\\x0a'],
    ['\\u000A'],
    ['\\cJ'],
    ['(a)\\1'],
    ['\\012'],
    ['[\\s]'],
    ['[\\t-\\r]'],
    ['\\k<x>'],
  ])('refuses %j, which may match a newline', (source) => {
    expect(lineLocalRegex(new RegExp(source, 's'))).toBeUndefined();
  });

  it('keeps the line edges as lookarounds of a newline', () => {
    expect(lineLocalRegex(/^ERROR .*timeout$/is)).toEqual(
      /(?<![^\n])ERROR [^\n]*timeout(?![^\n])/gi,
    );
  });

  it('selects exactly the lines a line-by-line test selects, on random text', () => {
    const next = seededRandom(31);
    for (let round = 0; round < 40; round++) {
      // Short lines of few letters, spaces, CR, empty lines, non-ASCII and invalid bytes.
      const text = randomText(next, 'aab b\n\n\r\né', Math.floor(next() * 3000));
      const bytes = Buffer.concat([
        Buffer.from(text, 'utf8'),
        next() < 0.3 ? Buffer.from([0xff, 0x61, 0x0a]) : Buffer.alloc(0),
      ]);
      for (const source of patterns) {
        for (const flags of ['s', 'si']) {
          const regex = new RegExp(source, flags);
          expect(lineLocalRegex(regex), source).toBeDefined();
          const expected = referenceMatchingLines(regex, bytes);
          const label = `${source} /${flags} round ${round}`;
          expect(regexMatchingLines(regex, bytes), label).toEqual(expected);
          expect(regexCountLines(regex, bytes), label).toBe(expected.length);
        }
      }
    }
  });
});
