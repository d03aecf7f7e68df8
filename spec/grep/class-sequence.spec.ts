// Regexes of ASCII literals and classes are matched by walking outwards from a literal, no regex
// engine: they must select exactly the lines the regex selects, on text with non-ASCII,
// invalid UTF-8, CRLF, overlapping literals and long runs of class bytes.
import { describe, expect, it } from 'vitest';
import { classSequence } from '../../src/grep/class-sequence.js';
import {
  anchorRuns,
  ClassSequenceLineMatcher,
} from '../../src/grep/class-sequence-line-matcher.js';
import { compileMatcher } from '../../src/grep/compile-matcher.js';
import { matchRanges } from '../../src/grep/match-ranges.js';
import { referenceMatchingLines } from '../helpers/reference-lines.js';
import { seededRandom } from '../helpers/seeded-random.js';

describe('classSequence', () => {
  it.each([
    ['took [0-9]{2}ms', 8],
    ['upstream_status=5[0-9][0-9]', 19],
    ['rt=1\\.[0-9]{3} ', 7],
    ['GET /api/v2/[a-z]+', 13],
    ['volume /data/[0-9]+: 10[0-9]{2} GiB', 23],
    ['a\\d*?z[-a-c_.]{1,3}x', 5],
    ['-\\w+\\-y', 4],
  ])('%j has %i items', (source, length) => {
    expect(classSequence(source)).toHaveLength(length);
  });

  it.each([
    ['a.b'],
    ['a(b)c'],
    ['a|b'],
    ['^ab'],
    ['ab$'],
    ['a\\bc'],
    ['a\\sb'],
    ['a[^b]c'],
    ['aé'],
    ['a\\1'],
    ['a[0-9]+[0-9]b'],
    ['a[ab]*bc'],
    ['ab\\d+\\d?c'],
    ['a\\d*?b[-a-c_.]{1,3}c'],
    ['x\\w+\\-y'],
    ['a*aab'],
    ['a{2,1}'],
    ['a[b'],
    ['a\\nb'],
  ])('%j is not one', (source) => {
    expect(classSequence(source)).toBeUndefined();
  });

  it('leaves a sequence whose literals are all short to the regex', () => {
    expect(anchorRuns(classSequence('\\d{4}-\\d{2}') ?? [])).toEqual([]);
    expect(anchorRuns(classSequence('ab[0-9]cde') ?? []).map((run) => String(run.bytes))).toEqual([
      'cde',
    ]);
  });
});

describe('ClassSequenceLineMatcher', () => {
  // Escapes of ASCII bytes, an empty class and an escaped `-` in a class, read as JavaScript does.
  const spellings = ['aab\\r', 'ab\\x2e\\d', 'aab\\t?b', 'aab[]a]?', 'aab[a\\-b]'];
  const patterns = [
    'aab[0-9]{2}c',
    'aab+a\\d*bba',
    '[ab]+ aab',
    'b\\d?aab',
    'aab[ .]{1,3}b',
    'abab+?a',
    'b*aab',
    'aab \\w{2,}',
    'ab\\.[0-9]{1,2} ',
    '\\d+aba\\d',
    'ab?aab',
    'bab[\\d.]{3}',
    ...spellings,
  ];
  // Bytes that are ASCII letters and classes' members, plus non-ASCII, invalid UTF-8 and CR.
  const alphabet = [...Buffer.from('aabbab0123 ._-\r\n\n'), 0xc3, 0xa9, 0xff, 0x80, 0xe2];
  const randomBlock = (next: () => number) =>
    Buffer.from(
      Array.from(
        { length: Math.floor(next() * 6000) },
        () => alphabet[Math.floor(next() * alphabet.length)] as number,
      ),
    );

  it('selects exactly the lines the regex selects, on random bytes', async () => {
    const next = seededRandom(29);
    for (let round = 0; round < 40; round++) {
      const bytes = randomBlock(next);
      for (const pattern of patterns) {
        const matcher = compileMatcher(pattern, { inThread: true });
        expect(matcher).toBeInstanceOf(ClassSequenceLineMatcher);
        const expected = referenceMatchingLines(new RegExp(pattern, 's'), bytes);
        const label = `${pattern} round ${round}`;
        expect(Array.from(await matcher.matchingLines(bytes)), label).toEqual(expected);
        expect(matcher.countMatchingLines?.(bytes), label).toBe(expected.length);
      }
    }
  });

  it("tells each line's matches (grep -o) exactly as the g regex does, on random bytes", () => {
    // The patterns whose literal comes after fixed-length items only; the others (a variable
    // item before every literal) are left to the regex.
    const told = [
      'aab[0-9]{2}c',
      'aab[ .]{1,3}b',
      'abab+?a',
      'aab \\w{2,}',
      'ab\\.[0-9]{1,2} ',
      'bab[\\d.]{3}',
      '[ab]{2}aab\\d*',
      'ab[0-9]aab\\d+?',
      'aab \\w+?',
      'ab-\\w{2,4}?',
      'aba[0-9]?',
      'bb\\.ab[ab]{2}',
      ...spellings,
    ];
    const next = seededRandom(31);
    const telling = new Set<string>();
    for (let round = 0; round < 40; round++) {
      const bytes = randomBlock(next);
      const lines = bytes.toString('latin1').split('\n');
      for (const pattern of new Set([...patterns, ...told])) {
        const matcher = compileMatcher(pattern, { inThread: true });
        const regex = new RegExp(pattern, 'gs');
        let start = 0;
        for (const { length: lineLength } of lines) {
          const line = bytes.subarray(start, start + lineLength);
          start += lineLength + 1;
          const found: [number, number][] = [];
          if (!matcher.visitMatches?.(line, (from, to) => found.push([from, to]))) break;
          telling.add(pattern);
          expect(found, `${pattern} round ${round}`).toEqual([...matchRanges(regex, line)]);
        }
      }
    }
    expect([...telling].sort()).toEqual(told.sort());
  });

  it('finds a match through a later, overlapping occurrence of its literal', () => {
    const items = classSequence('aba[0-9]') ?? [];
    const matcher = new ClassSequenceLineMatcher(items, anchorRuns(items));
    // The first `aba` fails ([0-9] wanted after it); the overlapping one after it matches.
    expect(matcher.matchingLines(Buffer.from('xababa7\nabax\nab\naba1'))).toEqual([0, 16]);
  });

  it('walks runs of class bytes as long as a line, bounded by the line', () => {
    const items = classSequence('[0-9]+abc[0-9]{3,}') ?? [];
    const matcher = new ClassSequenceLineMatcher(items, anchorRuns(items));
    const digits = '7'.repeat(100_000);
    const block = Buffer.from(`${digits}abc${digits}\nabc${digits}\n1abc12\n${digits}abc123`);
    // Not the second line (no digit before abc) nor the third (two digits after it).
    expect(matcher.matchingLines(block)).toEqual([0, block.lastIndexOf('\n') + 1]);
    expect(matcher.countMatchingLines(block)).toBe(2);
  });
});
