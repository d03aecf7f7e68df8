import { compileMatcher } from 'spoolforge/engine';
import { describe, expect, it } from 'vitest';
import { requiredLiteral, requiredLiterals } from '../../src/grep/required-literal.js';

describe('requiredLiteral', () => {
  it.each([
    ['ERROR .*timeout', 'timeout'],
    ['timeout after \\d+ms', 'timeout after '],
    ['req=1[0-9]{2} ', 'req=1'],
    ['abc?def', 'def'],
    ['ab{0,2}cdef', 'cdef'],
    ['abc{2}de', 'abc'],
    ['foo\\.bar', 'foo.bar'],
    ['\\x41BCD', 'BCD'],
    ['err(or)?s detected', 's detected'],
    ['[abc]]xyz', ']xyz'],
    ['\\bword\\b', 'word'],
    ['a|bcdef', undefined],
    ['abc*', undefined],
    ['b.$', undefined],
    ['(?<n>x)\\k<n>yyyy', undefined],
    // An incomplete \x, \u or \c is literal text in JavaScript: nothing is read past it.
    ['\\xZ|foobar', undefined],
    ['\\x4|foobar', undefined],
    ['\\u12|foobar', undefined],
    ['\\c|foobar', undefined],
    ['\\x41bcd', 'bcd'],
    // `[^]` and `[]` are whole classes in JavaScript: the `|` after them is top-level.
    ['[^]|foobar]xyz', undefined],
    ['a[]bcde', 'bcde'],
    ['abcx{00}', 'abc'],
  ])('%j needs %j', (pattern, expected) => {
    expect(requiredLiteral(pattern)).toBe(expected);
  });

  it('only ever names text that every match contains', () => {
    const patterns = [
      'ab+c?d{1,2}efg',
      'x(?:yz)*zzz[0-9]?www',
      'q\\d+rst|uvw',
      'ha{0}ppy',
      '(a|b)ccc\\.ddd',
      'e*fff+',
    ];
    const alphabet = 'abcdefghqrstuvwxyz.0123456789';
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    for (const pattern of patterns) {
      const literals = requiredLiterals(pattern);
      const regex = new RegExp(pattern);
      for (let sample = 0; sample < 3000; sample++) {
        const text = Array.from(
          { length: 3 + Math.floor(random() * 12) },
          () => alphabet[Math.floor(random() * alphabet.length)],
        ).join('');
        const match = regex.exec(text);
        for (const literal of match ? literals : []) expect(match?.[0]).toContain(literal);
      }
    }
  });

  it('lists every required run, longest first', () => {
    expect(requiredLiterals('ERROR .*timeout')).toEqual(['timeout', 'ERROR ']);
    expect(requiredLiterals('abc\\d+defg.hij')).toEqual(['defg', 'abc', 'hij']);
    expect(requiredLiterals('a|bcdef')).toEqual([]);
  });
});

describe('a regex prefiltered by several required literals', () => {
  it.each([[false], [true]])(
    'selects exactly the lines the regex does (in thread: %s)',
    async (inThread) => {
      const patterns = ['ERR.*tim', 'abc\\d+defg', 'xxx.zzz', 'Qrs[0-9]tuv'];
      const words = ['ERR', 'tim', 'abc', 'defg', 'xxx', 'zzz', 'Qrs', 'tuv', '1', '7', 'é', ' '];
      let seed = 11;
      const random = () => {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        return seed / 0x7fffffff;
      };
      const lines = Array.from({ length: 20_000 }, () =>
        Array.from(
          { length: Math.floor(random() * 9) },
          () => words[Math.floor(random() * words.length)],
        ).join(''),
      );
      const block = Buffer.from(`${lines.join('\n')}\n`);
      const starts: number[] = [];
      for (let offset = 0, index = 0; index < lines.length; index++) {
        starts.push(offset);
        offset += Buffer.byteLength(lines[index] ?? '') + 1;
      }
      for (const pattern of patterns) {
        expect(requiredLiterals(pattern).length).toBeGreaterThan(1);
        const regex = new RegExp(pattern, 's');
        const expected = starts.filter((_, index) => regex.test(lines[index] ?? ''));
        expect(expected.length).toBeGreaterThan(0);
        const matcher = compileMatcher(pattern, { inThread });
        try {
          expect(Array.from(await matcher.matchingLines(block))).toEqual(expected);
        } finally {
          await matcher.dispose();
        }
      }
    },
  );
});
