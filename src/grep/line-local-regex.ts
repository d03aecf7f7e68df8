/** Escapes that match one character class none of whose members is `\n`, as written. */
const keptEscapes = new Set(['d', 'w', 'S', 'b', 'B', 't', 'r', 'f', 'v', '0']);
/** Escapes whose class holds `\n`, and the same class without it. */
const classEscapes: Record<string, string> = { s: '[^\\S\\n]', D: '[^\\d\\n]', W: '[^\\w\\n]' };
/** Escaped characters that mean themselves. */
const syntaxCharacter = /[\\^$.|?*+()[\]{}/-]/;

/**
 * A regex that matches a block of whole lines exactly where `regex` (compiled with flag `s`,
 * as grep patterns are) matches one of its lines on its own: no part of a match can hold or
 * step over a `\n`, `^` and `$` are line edges, and what looks around a line's edge sees the
 * `\n` there, which nothing in it can match, as the line alone would see nothing. Run with
 * flag `g` over a slice of many lines, one `exec` finds the next matching line where testing
 * each line on its own costs a string and a call per line. `undefined` for what it cannot
 * prove line-local (an escape for `\n`, a backreference, a class that might hold `\n`):
 * those are tested line by line.
 *
 * @example
 * ```ts
 * lineLocalRegex(/^ERROR .*timeout$/s)?.source; // '(?<![^\n])ERROR [^\n]*timeout(?![^\n])'
 * ```
 */
export function lineLocalRegex(regex: RegExp): RegExp | undefined {
  const source = lineLocalSource(regex.source);
  if (source === undefined) return undefined;
  return new RegExp(source, `g${regex.flags.replace(/[gsmy]/g, '')}`);
}

function lineLocalSource(source: string): string | undefined {
  let out = '';
  let index = 0;
  while (index < source.length) {
    const character = source[index] as string;
    if (character === '\\') {
      const translated = translateEscape(source, index + 1);
      if (translated === undefined) return undefined;
      out += translated.text;
      index = translated.end;
    } else if (character === '[') {
      const end = classEnd(source, index);
      if (end === undefined) return undefined;
      const translated = translateClass(source.slice(index, end));
      if (translated === undefined) return undefined;
      out += translated;
      index = end;
    } else {
      out +=
        character === '.'
          ? '[^\\n]'
          : character === '^'
            ? '(?<![^\\n])'
            : character === '$'
              ? '(?![^\\n])'
              : character;
      index++;
    }
  }
  return out;
}

/** The escape whose letter is at `at`, as it reads line-locally, and the index after it. */
function translateEscape(source: string, at: number): { text: string; end: number } | undefined {
  const letter = source[at];
  if (letter === undefined) return undefined;
  if (syntaxCharacter.test(letter) || keptEscapes.has(letter)) {
    // `\0` followed by a digit is an octal escape, which may be a newline.
    if (letter === '0' && /\d/.test(source[at + 1] ?? '')) return undefined;
    return { text: `\\${letter}`, end: at + 1 };
  }
  const replaced = classEscapes[letter];
  if (replaced) return { text: replaced, end: at + 1 };
  if (letter === 'x' || letter === 'u') {
    const digits = letter === 'x' ? 2 : 4;
    const hex = source.slice(at + 1, at + 1 + digits);
    if (!new RegExp(`^[0-9a-fA-F]{${digits}}$`).test(hex) || Number.parseInt(hex, 16) === 10)
      return undefined;
    return { text: `\\${letter}${hex}`, end: at + 1 + digits };
  }
  // \n, \cJ, backreferences (an octal escape where the group is missing), \k<name>: not proven.
  if (letter === 'n' || letter === 'c' || letter === 'k' || /\d/.test(letter)) return undefined;
  // Any other letter means itself (no `u` flag).
  return { text: `\\${letter}`, end: at + 1 };
}

/** The index after the class opening at `start` (its `]`), or `undefined` if it never closes. */
function classEnd(source: string, start: number): number | undefined {
  let index = start + 1;
  if (source[index] === '^') index++;
  // In JavaScript `[]` matches nothing and `[^]` any character: a `]` first closes the class.
  if (source[index] === ']') return index + 1;
  for (; index < source.length; index++) {
    if (source[index] === '\\') index++;
    else if (source[index] === ']') return index + 1;
  }
  return undefined;
}

/**
 * A class that cannot match `\n`: a negated class gains it among what it refuses; a positive
 * class is kept when it has no control character, range bound by escape, or escape whose
 * class holds `\n`.
 */
function translateClass(text: string): string | undefined {
  if (text.startsWith('[^')) return `${text.slice(0, -1)}\\n]`;
  const body = text.slice(1, -1);
  for (let index = 0; index < body.length; index++) {
    const character = body[index] as string;
    if (character.charCodeAt(0) < 0x20) return undefined;
    if (character !== '\\') continue;
    const letter = body[index + 1] ?? '';
    if (!syntaxCharacter.test(letter) && !'dwSb'.includes(letter)) return undefined;
    index++;
  }
  return text;
}

/**
 * Whether every match of a regex (no `u` flag) is ASCII text that non-ASCII text around it
 * cannot change: no `.`, negated class or `\s` `\S` `\D` `\W` (each would take a whole UTF-8
 * character where a byte view has several), nothing outside ASCII, and no match of "". Such a regex matches
 * the same lines of text decoded byte for byte (`latin1`, ten times faster than UTF-8) as of
 * text decoded as UTF-8, even with `i`: no character past ASCII folds into it.
 *
 * @example
 * ```ts
 * matchesAsciiOnly(/\d{4}-\d{2}/s); // true
 * matchesAsciiOnly(/a.c/s); // false: `.` takes one character of é's two bytes
 * ```
 */
export function matchesAsciiOnly(regex: RegExp): boolean {
  const source = regex.source;
  if (/[^\x20-\x7e]/.test(source)) return false;
  // An empty match rests on lookarounds that see nothing, `\B`, edges: in a byte view it could
  // fall between two bytes of one character. A regex that matches "" could do so; one that
  // does not needs an ASCII character beside every empty match, so a character boundary.
  if (new RegExp(source, regex.flags.replace(/[gy]/g, '')).test('')) return false;
  for (let index = 0; index < source.length; index++) {
    const character = source[index];
    if (character === '.' || (character === '[' && source[index + 1] === '^')) return false;
    if (character !== '\\') continue;
    const letter = source[index + 1] ?? '';
    if ('sSDW'.includes(letter)) return false;
    const hex =
      letter === 'x'
        ? source.slice(index + 2, index + 4)
        : letter === 'u'
          ? source.slice(index + 2, index + 6)
          : '';
    if (hex && !(Number.parseInt(hex, 16) < 0x80)) return false;
    index++;
  }
  return true;
}
