import { describe, expect, it } from 'vitest';
import { requiredLiteral } from '../../dist/artifact/grep/required-literal.js';

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
      const literal = requiredLiteral(pattern);
      const regex = new RegExp(pattern);
      for (let sample = 0; sample < 3000; sample++) {
        const text = Array.from(
          { length: 3 + Math.floor(random() * 12) },
          () => alphabet[Math.floor(random() * alphabet.length)],
        ).join('');
        const match = regex.exec(text);
        if (match && literal !== undefined) expect(match[0]).toContain(literal);
      }
    }
  });
});
