import { compileMatcher } from 'spoolforge/engine';
import { describe, expect, it } from 'vitest';
import { rarestLiteral } from '../../src/grep/rarest-literal.js';
import { topLevelAlternatives } from '../../src/grep/required-literal.js';
import { referenceMatchingLines } from '../helpers/reference-lines.js';
import { randomText, seededRandom } from '../helpers/seeded-random.js';

describe('topLevelAlternatives', () => {
  it.each([
    ['ERROR|FATAL', ['ERROR', 'FATAL']],
    ['a|b(c|d)|[|]|\\|', ['a', 'b(c|d)', '[|]', '\\|']],
    ['a|', ['a', '']],
    ['(a|b', undefined],
  ])('%j', (source, expected) => {
    expect(topLevelAlternatives(source)).toEqual(expected);
  });
});

describe('rarestLiteral', () => {
  it('counts the literals in the block rather than ranking their bytes', () => {
    const block = Buffer.from('1 ERROR x\n2 ERROR y\n3 checksum ERROR\n');
    expect(rarestLiteral([Buffer.from('ERROR'), Buffer.from('checksum')], block)).toBe(1);
    expect(rarestLiteral([Buffer.from('checksum'), Buffer.from('ERROR')], block)).toBe(0);
  });
});

describe('patterns compiled to byte searches', () => {
  it.each([
    ['ab|ba', {}, 'AnyLiteralLineMatcher'],
    ['ab\nba', {}, 'AnyLiteralLineMatcher'],
    ['ab|BA', { ignoreCase: true }, 'AnyLiteralLineMatcher'],
    ['^ab a', {}, 'AnchoredLiteralLineMatcher'],
    ['b a$', {}, 'AnchoredLiteralLineMatcher'],
    ['b.*aab', {}, 'LiteralSequenceLineMatcher'],
    ['aab+a|bab[ab]b', {}, 'PrefilteredLineMatcher'],
    ['aab+a\\d*bba', {}, 'ClassSequenceLineMatcher'],
    ['took [0-9]{2}ms', {}, 'ClassSequenceLineMatcher'],
    ['aab+b', {}, 'PrefilteredLineMatcher'],
    ['aab[ab]?a', {}, 'PrefilteredLineMatcher'],
    ['ab', { wordRegexp: true }, 'WordLiteralLineMatcher'],
    ['connect\\(\\) failed|bad', {}, 'AnyLiteralLineMatcher'],
    ['^198\\.51\\.', {}, 'AnchoredLiteralLineMatcher'],
    ['\\[error\\].*checksum', {}, 'LiteralSequenceLineMatcher'],
    ['a\\\\.*b', {}, 'LiteralSequenceLineMatcher'],
    ['aab\\.*bba', {}, 'ClassSequenceLineMatcher'],
  ])('%j %j is a %s', async (pattern, options, kind) => {
    const matcher = compileMatcher(pattern, { ...options, inThread: true });
    expect(matcher.constructor.name).toBe(kind);
    await matcher.dispose();
  });

  it('selects exactly the lines the regex selects, on random text', async () => {
    const next = seededRandom(7);
    const cases: [string, { ignoreCase?: boolean; fixed?: boolean; wordRegexp?: boolean }][] = [
      ['ab', { wordRegexp: true }],
      ['a b', { wordRegexp: true }],
      ['a\\.b', {}],
      ['^b\\(', {}],
      ['a\\.|\\(b', {}],
      ['\\(a.*b\\.', {}],
      ['a\\(', { wordRegexp: true }],
      ['bA', { wordRegexp: true, ignoreCase: true }],
      ['ab|ba', {}],
      ['aa|a', {}],
      ['ab|', {}],
      ['ab|ba', { ignoreCase: true }],
      ['aB|b a|AAB', { ignoreCase: true }],
      ['ab\nbb', {}],
      ['ab|b a|AA', {}],
      ['A|b\nab|\r', {}],
      ['a|b', { fixed: true }],
      ['^ab', {}],
      ['^a', {}],
      ['^a b', {}],
      ['b$', {}],
      ['ab a$', {}],
      ['\r$', {}],
      ['b.*aab', {}],
      ['aab.*b', {}],
      ['ab+a|b[ab]b', {}],
      ['aab+a|bab[ab]b', {}],
      ['aab+a|bab[ab]b', { ignoreCase: true }],
      ['aab+a\\d*bba', {}],
      ['bba.*a(a|b)aab', {}],
    ];
    for (let round = 0; round < 30; round++) {
      const text = randomText(next, 'aabbAB .(\r\n\n', Math.floor(next() * 4000));
      // Half the blocks end without a newline, as the last block of a file may.
      const block = Buffer.from(next() < 0.5 ? text : `${text}\n`);
      for (const [pattern, options] of cases) {
        const source = options.fixed ? pattern.replace(/[|]/g, '\\|') : pattern;
        const alternatives = source
          .split('\n')
          .map((alternative) => `(?:${alternative})`)
          .join('|');
        const regex = new RegExp(
          options.wordRegexp
            ? `(?<![A-Za-z0-9_])(?:${alternatives})(?![A-Za-z0-9_])`
            : alternatives,
          options.ignoreCase ? 'si' : 's',
        );
        const matcher = compileMatcher(pattern, { ...options, inThread: true });
        const expected = referenceMatchingLines(regex, block);
        const label = `${JSON.stringify(pattern)} ${JSON.stringify(options)} round ${round}`;
        expect(Array.from(await matcher.matchingLines(block)), label).toEqual(expected);
        if (matcher.countMatchingLines) {
          expect(matcher.countMatchingLines(block), label).toBe(expected.length);
        }
        await matcher.dispose();
      }
    }
  });

  it('counts an alternation of literals exactly block after block, whichever is most frequent', async () => {
    const next = seededRandom(13);
    const pattern = 'ab|b a|AA|\r';
    const regex = /ab|b a|AA|\r/s;
    // One matcher for every block: the literal on most lines of the first block is counted
    // first, and later blocks change which is most frequent.
    const matcher = compileMatcher(pattern, { inThread: true });
    for (let round = 0; round < 60; round++) {
      const alphabet = ['aabbAB .\r\n\n', 'AAAAb\n', 'ab ab\n\n\n', 'b a\r\n'][round % 4] ?? '';
      const text = randomText(next, alphabet, Math.floor(next() * 9000));
      const block = Buffer.from(next() < 0.5 ? text : `${text}\n`);
      const expected = referenceMatchingLines(regex, block).length;
      expect(matcher.countMatchingLines?.(block), `round ${round}`).toBe(expected);
    }
    await matcher.dispose();
  });

  it('gives the regex whole blocks while candidates are dense, and prefilters again after', async () => {
    const next = seededRandom(11);
    // The group keeps it a regex: `status=5\d\d ` alone is a class sequence.
    const matcher = compileMatcher('status=5\\d\\d( )', { inThread: true });
    // Blocks of 40 lines: mostly sparse (one candidate in 2 KiB or less), some dense runs.
    for (let index = 0; index < 60; index++) {
      const dense = index % 20 >= 3 && index % 20 < 6;
      const lines: string[] = [];
      for (let line = 0; line < 40; line++) {
        const status = dense || next() < 0.02 ? `status=5${next() < 0.5 ? '0x' : '03'}` : 'ok';
        lines.push(`${'x'.repeat(Math.floor(next() * 200))} ${status} y`);
      }
      const block = Buffer.from(`${lines.join('\n')}\n`);
      const expected = referenceMatchingLines(/status=5\d\d( )/s, block);
      expect(Array.from(await matcher.matchingLines(block)), `block ${index}`).toEqual(expected);
    }
    await matcher.dispose();
  });
});
