// One parser reads the regex syntax the grep engine understands: the line automaton takes its
// tree, and the class-sequence walker a flat run of literal and class items from it. This pins,
// pattern by pattern, what each of them takes and which matcher compileMatcher picks.
import { describe, expect, it } from 'vitest';
import { type ClassItem, classSequence } from '../../src/grep/class-sequence.js';
import { compileMatcher } from '../../src/grep/compile-matcher.js';
import { parseRegex } from '../../src/grep/regex-syntax.js';
import { referenceMatchingLines } from '../helpers/reference-lines.js';

/** Items as text: a one-byte item as its byte, a class as `[members]`, then `{min,max}` and `?` for lazy. */
function shape(items: readonly ClassItem[] | undefined): string | undefined {
  return items
    ?.map(({ members, min, max, lazy }) => {
      const count = members.reduce((sum, member) => sum + member, 0);
      const atom = count === 1 ? String.fromCharCode(members.indexOf(1)) : `[${count}]`;
      const times = min === 1 && max === 1 ? '' : `{${min},${max === Infinity ? '' : max}}`;
      return `${atom}${times}${lazy ? '?' : ''}`;
    })
    .join('');
}

async function matcherKind(pattern: string, ignoreCase: boolean): Promise<string> {
  try {
    const matcher = compileMatcher(pattern, { ignoreCase, inThread: true });
    await matcher.dispose();
    return matcher.constructor.name;
  } catch (error) {
    return (error as { code: string }).code;
  }
}

describe('parseRegex and classSequence', () => {
  it.each<[string, boolean, boolean, string | undefined, string]>([
    ['took [0-9]{2}ms', false, true, 'took [10]{2,2}ms', 'ClassSequenceLineMatcher'],
    ['took [0-9]{2}ms', true, true, 'took [10]{2,2}ms', 'PrefilteredLineMatcher'],
    ['abc\\d+?x', false, true, 'abc[10]{1,}?x', 'ClassSequenceLineMatcher'],
    ['abc\\d{2,5}?', false, true, 'abc[10]{2,5}?', 'ClassSequenceLineMatcher'],
    ['ab*?c{2}?d', false, true, 'ab{0,}?c{2,2}?d', 'DfaLineMatcher'],
    ['abc\\d{3,}x', false, true, 'abc[10]{3,}x', 'ClassSequenceLineMatcher'],
    ['abc[0-9]{2,5}x', false, true, 'abc[10]{2,5}x', 'ClassSequenceLineMatcher'],
    ['a\\d*?z[-a-c_.]{1,3}x', false, true, 'a[10]{0,}?z[6]{1,3}x', 'DfaLineMatcher'],
    ['abc[\\d_-]+x', false, true, 'abc[12]{1,}x', 'ClassSequenceLineMatcher'],
    ['abc\\-\\d', false, true, 'abc-[10]', 'ClassSequenceLineMatcher'],
    ['abc\\.def', false, true, 'abc.def', 'BytesLineMatcher'],
    ['abc\\.\\d', false, true, 'abc.[10]', 'ClassSequenceLineMatcher'],
    ['abc\\/\\d', false, true, 'abc/[10]', 'ClassSequenceLineMatcher'],
    // JavaScript's escaped space: once the walker's alone, now the automaton's too.
    ['abc\\ \\d', false, true, 'abc [10]', 'ClassSequenceLineMatcher'],
    ['\\d\\ \\d', false, true, '[10] [10]', 'DfaLineMatcher'],
    ['a.bcd', false, true, undefined, 'PrefilteredLineMatcher'],
    ['abc[^x]d', false, true, undefined, 'PrefilteredLineMatcher'],
    ['abc\\sd', false, true, undefined, 'PrefilteredLineMatcher'],
    ['abc[\\s]d', false, true, undefined, 'PrefilteredLineMatcher'],
    ['abc\\Dd', false, true, undefined, 'PrefilteredLineMatcher'],
    ['abc\\bd', false, false, undefined, 'PrefilteredLineMatcher'],
    ['abc(de)f', false, true, undefined, 'PrefilteredLineMatcher'],
    ['abc(?:de)+', false, true, undefined, 'PrefilteredLineMatcher'],
    ['abc|d\\d', false, true, undefined, 'DfaLineMatcher'],
    ['^abc\\d', false, true, undefined, 'PrefilteredLineMatcher'],
    ['abc\\d$', false, true, undefined, 'PrefilteredLineMatcher'],
    ['abcé\\d', false, false, undefined, 'PrefilteredLineMatcher'],
    // ASCII bytes however they are written: once refused by the walker's own reader.
    ['abc[\\b]d', false, true, 'abc\bd', 'ClassSequenceLineMatcher'],
    ['abc\\t\\d', false, true, 'abc\t[10]', 'ClassSequenceLineMatcher'],
    ['abc\t\\d', false, true, 'abc\t[10]', 'ClassSequenceLineMatcher'],
    ['abc\\x41\\d', false, true, 'abcA[10]', 'ClassSequenceLineMatcher'],
    ['abc{x\\d', false, true, 'abc{x[10]', 'ClassSequenceLineMatcher'],
    ['abc}\\d', false, true, 'abc}[10]', 'ClassSequenceLineMatcher'],
    ['abc]\\d', false, true, 'abc][10]', 'ClassSequenceLineMatcher'],
    // Classes JavaScript reads otherwise than the walker's own reader did: an empty class, and
    // an escaped `-` that is no range.
    ['abc[]a]x', false, true, 'abc[0]a]x', 'ClassSequenceLineMatcher'],
    ['abcx[a\\-z]y', false, true, 'abcx[3]y', 'ClassSequenceLineMatcher'],
    ['abc\\w+\\w', false, true, undefined, 'PrefilteredLineMatcher'],
    ['a[0-9]+[0-9]bcd', false, true, undefined, 'PrefilteredLineMatcher'],
    ['abc(?<=c)\\d', false, false, undefined, 'PrefilteredLineMatcher'],
    ['(a)\\1bcd', false, false, undefined, 'PrefilteredLineMatcher'],
    ['abc\\nd', false, false, undefined, 'PrefilteredLineMatcher'],
    ['abc\\d+x', true, true, 'abc[10]{1,}x', 'PrefilteredLineMatcher'],
    ['[a-z]+ERROR', true, true, '[26]{1,}ERROR', 'PrefilteredLineMatcher'],
    ['', false, true, undefined, 'BytesLineMatcher'],
    ['abc{2,1}', false, false, undefined, 'E_REGEX_INVALID'],
    // A count of five digits or more is a quantifier, not a literal `{`.
    ['abca{12345}', false, false, undefined, 'PrefilteredLineMatcher'],
    ['abca{00002}x', false, true, 'abca{2,2}x', 'ClassSequenceLineMatcher'],
  ])(
    '%j (ignoreCase %j): parsed %j, items %j, matched by %s',
    async (pattern, ignoreCase, parsed, items, kind) => {
      expect(parseRegex(pattern, ignoreCase) !== undefined).toBe(parsed);
      expect(shape(classSequence(pattern))).toBe(items);
      expect(await matcherKind(pattern, ignoreCase)).toBe(kind);
    },
  );

  it('reads a count of any digits as JavaScript does', async () => {
    const bytes = Buffer.from(
      `abca{12345}\nabc${'a'.repeat(12_345)}\n1a{12345}\nabcaax\nabca{00002}x\n`,
    );
    for (const pattern of ['abca{12345}', '\\da{12345}', 'abca{00002}x', 'abca{2,10000}']) {
      const matcher = compileMatcher(pattern, { inThread: true });
      const expected = referenceMatchingLines(new RegExp(pattern, 's'), bytes);
      expect(Array.from(await matcher.matchingLines(bytes)), pattern).toEqual(expected);
      await matcher.dispose();
    }
  });
});
