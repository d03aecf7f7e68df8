// Regexes without a literal to search for are walked by a line automaton in WebAssembly: it
// must select exactly the lines V8's regex selects, on text with non-ASCII characters, invalid
// UTF-8, CR, empty lines and a last line without its `\n`, in blocks in the kernels' memory and
// out of it, and across the 1 MiB pieces a large block is copied in.
import { describe, expect, it } from 'vitest';
import { compileMatcher, patternRegex } from '../../src/grep/compile-matcher.js';
import { DfaLineMatcher } from '../../src/grep/dfa-line-matcher.js';
import { lineDfa } from '../../src/grep/line-dfa.js';
import { PrefilteredLineMatcher } from '../../src/grep/prefiltered-line-matcher.js';
import { regexNfa } from '../../src/grep/regex-nfa.js';
import { countableBuffer } from '../../src/spool/simd-newline-count.js';
import { referenceMatchingLines } from '../helpers/reference-lines.js';
import { seededRandom } from '../helpers/seeded-random.js';

const patterns: [string, boolean][] = [
  ['[0-9]+\\.[0-9]+:[0-9]+', false],
  ['[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}', false],
  ['\\d{2}-\\d', false],
  ['ab|b\\.a', false],
  ['^a[ab]*b$', false],
  ['^$', false],
  ['^(ab|ba)+', false],
  ['b\\d?$', false],
  ['a.b', false],
  ['a.*b.1', false],
  ['[^ab]{2}', false],
  ['a\\Sb', false],
  ['a\\s', false],
  ['\\W\\d', false],
  ['(?:a|\\.)[0-9]{2,}', false],
  ['x[-.]?\\d+', false],
  ['AB?\\d', true],
  ['[a-b]\\.b', true],
  ['\\r$', false],
  ['a\\x2e\\t?', false],
  ['(?<n>a)(b|)\\d', false],
  ['[\\d.]{4}', false],
  ['a{2}b{0,1}', false],
  ['.{3}$', false],
];
// ASCII letters and digits the patterns use, spaces, CR, tabs, non-ASCII and invalid UTF-8.
const alphabet = [...Buffer.from('aAbB0129. :-x\t\r'), 0xc3, 0xa9, 0xff, 0x80, 0xe2, 0x82];

/** Random bytes with a `\n` at each position with probability `newlines`. */
function randomBytes(next: () => number, length: number, newlines = 0.15): Buffer {
  return Buffer.from(
    Array.from({ length }, () =>
      next() < newlines ? 0x0a : (alphabet[Math.floor(next() * alphabet.length)] as number),
    ),
  );
}

function matcherFor(pattern: string, ignoreCase: boolean): DfaLineMatcher {
  const matcher = DfaLineMatcher.create(patternRegex(pattern, { ignoreCase }));
  if (!matcher) throw new Error(`no automaton for ${pattern}`);
  return matcher;
}

describe('DfaLineMatcher', () => {
  it('selects exactly the lines the regex selects, on random bytes in and out of the kernels memory', () => {
    const next = seededRandom(37);
    for (let round = 0; round < 30; round++) {
      // Short lines, and long ones whose idle stretches the kernel skips 16 bytes at a time.
      const bytes = randomBytes(next, Math.floor(next() * 5000), [0.15, 0.02, 0.004][round % 3]);
      const pooled = countableBuffer(bytes.length);
      bytes.copy(pooled.buffer);
      try {
        for (const [pattern, ignoreCase] of patterns) {
          const matcher = matcherFor(pattern, ignoreCase);
          const regex = patternRegex(pattern, { ignoreCase });
          const expected = referenceMatchingLines(regex, bytes);
          const label = `${pattern} round ${round}`;
          expect(matcher.matchingLines(bytes), label).toEqual(expected);
          expect(matcher.countMatchingLines(bytes), label).toBe(expected.length);
          expect(matcher.matchingLines(pooled.buffer), `${label} in place`).toEqual(expected);
        }
      } finally {
        pooled.release();
      }
    }
  });

  it('selects the lines of a -w regex, its lookarounds walked as the bytes beside the match', () => {
    const words = ['a[0-9]+', '[ab]\\.?b', 'x|b0', 'a.?b', '\\d{2}'];
    const next = seededRandom(47);
    for (let round = 0; round < 20; round++) {
      const bytes = randomBytes(next, Math.floor(next() * 5000), [0.1, 0.01][round % 2]);
      for (const pattern of words) {
        const regex = patternRegex(pattern, { wordRegexp: true });
        const matcher = DfaLineMatcher.create(regex);
        expect(matcher, pattern).toBeDefined();
        const expected = referenceMatchingLines(regex, bytes);
        expect(matcher?.matchingLines(bytes), `${pattern} ${round}`).toEqual(expected);
      }
    }
  });

  it('walks a block larger than its window, lines running across the pieces', () => {
    const next = seededRandom(41);
    // Long lines, so that lines (matching and not) straddle each 1 MiB piece's edge.
    const parts: Buffer[] = [];
    for (let size = 0; size < 3.5 * 1024 * 1024; ) {
      const line = randomBytes(next, Math.floor(next() * 300_000), 0);
      const part = Buffer.concat([line, Buffer.from('\n')]);
      parts.push(part);
      size += part.length;
    }
    const bytes = Buffer.concat(parts).subarray(0, -1); // no final `\n`
    for (const pattern of ['[0-9]+\\.[0-9]+:[0-9]+', 'a.b$', '^\\d', '[ab]{5}$']) {
      const matcher = matcherFor(pattern, false);
      const expected = referenceMatchingLines(patternRegex(pattern), bytes);
      expect(matcher.matchingLines(bytes), pattern).toEqual(expected);
    }
  });

  it('carries the walk over the edge of a piece: a match split by it, a line begun before it', () => {
    const piece = 1024 * 1024;
    const pattern = '[0-9]+\\.[0-9]+:[0-9]+';
    // A match whose bytes straddle the first edge, in a line that began in the first piece.
    const split = Buffer.from(`${'x'.repeat(piece - 4)}1.2:3 y\nno\n`);
    // A line matched early in the first piece that runs on past the edge: its rest is skipped.
    const early = Buffer.from(`1.2:3${'x'.repeat(piece)}\n9.9:9\n`);
    // A line whose match ends at `$` right after the edge.
    const atEnd = Buffer.from(`${'x'.repeat(piece - 2)}a.b\nab\n`);
    for (const [bytes, source] of [
      [split, pattern],
      [early, pattern],
      [atEnd, 'a.b$'],
    ] as const) {
      const expected = referenceMatchingLines(patternRegex(source), bytes);
      expect(expected.length).toBeGreaterThan(0);
      expect(matcherFor(source, false).matchingLines(bytes), source).toEqual(expected);
    }
  });

  it('hands a line to the regex where a match may begin at a non-ASCII character', () => {
    // `é` and an invalid byte are each one \W character to the regex, and start its match.
    const bytes = Buffer.concat([
      Buffer.from(`${'x'.repeat(40)}é1\n${'y'.repeat(40)}1\n`),
      Buffer.from([...Buffer.from('z'.repeat(40)), 0xff, 0x32, 0x0a]),
    ]);
    expect(matcherFor('\\W\\d', false).matchingLines(bytes)).toEqual([0, 86]);
  });

  it('answers more matching lines than one kernel call writes', () => {
    const bytes = Buffer.from('1.2:3\nnone\n'.repeat(20_000));
    const matcher = matcherFor('[0-9]+\\.[0-9]+:[0-9]+', false);
    expect(matcher.countMatchingLines(bytes)).toBe(20_000);
    expect(matcher.matchingLines(bytes).slice(-2)).toEqual([bytes.length - 22, bytes.length - 11]);
  });

  it("answers a pattern that backtracks for ages in V8's regex engine, on the calling thread", () => {
    // 40 a's and a b: `(a+)+$` tries every split of the a's before it gives up on this line.
    const bytes = Buffer.from(`${'a'.repeat(40)}b\naaa\n`.repeat(100));
    const matcher = compileMatcher('(a+)+$');
    expect(matcher).toBeInstanceOf(DfaLineMatcher);
    expect(matcher.countMatchingLines?.(bytes)).toBe(100);
  });

  it('tests the lines a literal prefilter finds, exactly as the regex would', async () => {
    // Regexes with a literal of 3+ bytes that no byte search alone decides.
    const prefiltered = ['aba(b|0)\\d', 'a.b.*bab[0-9]+', '(?:x|b)aab.b$', '^.?aba\\s'];
    const shortAlphabet = [...Buffer.from('ab0 .x\r'), 0xc3, 0xa9, 0xff];
    const next = seededRandom(43);
    for (let round = 0; round < 20; round++) {
      const bytes = Buffer.from(
        Array.from({ length: Math.floor(next() * 8000) }, () =>
          next() < 0.05
            ? 0x0a
            : (shortAlphabet[Math.floor(next() * shortAlphabet.length)] as number),
        ),
      );
      for (const pattern of prefiltered) {
        const matcher = compileMatcher(pattern);
        expect(matcher).toBeInstanceOf(PrefilteredLineMatcher);
        const expected = referenceMatchingLines(patternRegex(pattern), bytes);
        expect(Array.from(await matcher.matchingLines(bytes)), `${pattern} ${round}`).toEqual(
          expected,
        );
      }
    }
  });

  it('is what compileMatcher picks for a regex without a literal of its own', () => {
    expect(compileMatcher('[0-9]+\\.[0-9]+\\.[0-9]+:[0-9]+')).toBeInstanceOf(DfaLineMatcher);
    expect(compileMatcher('\\d{4}-\\d{2}', { ignoreCase: true })).toBeInstanceOf(DfaLineMatcher);
  });
});

describe('regexNfa and lineDfa', () => {
  it.each([
    ['(?<=a)b'],
    ['a(?=b)'],
    ['\\bword'],
    ['(a)\\1'],
    ['é+'],
    ['a\\nb'],
    ['\\p{L}'],
    ['\\x80'],
    ['\\0'],
    ['\\cA'],
  ])('%j is left to the regex', (source) => {
    expect(regexNfa(source, false)).toBeUndefined();
  });

  it('leaves a regex that matches every line, and one past its rows, to the regex', () => {
    const everyLine = regexNfa('x*', false);
    expect(everyLine && lineDfa(everyLine)).toBeUndefined();
    // `(a|b)*a(a|b){9}`: the automaton must remember the last ten bytes, 2^10 rows and more.
    const large = regexNfa('[ab]*a[ab]{9}', false);
    expect(large && lineDfa(large, 512)).toBeUndefined();
    // Fewer rows than the bound, but dozens of byte classes over a thousand states each.
    const letters = [...'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'];
    const item = `(?:${letters.map((letter) => `[${letter}]`).join('|')})`;
    const costly = regexNfa(`${item}*a${item}{8}`, false);
    expect(costly).toBeDefined();
    expect(costly && lineDfa(costly)).toBeUndefined();
  });

  it('reads a negated class with ignoreCase as JavaScript does: folded, then negated', () => {
    const matcher = DfaLineMatcher.create(patternRegex('[^a]', { ignoreCase: true }));
    expect(matcher?.matchingLines(Buffer.from('A\na\nb\n'))).toEqual([4]);
  });
});
