/**
 * A regex's syntax as the grep engine takes it: byte sets (ASCII members only; `nonAscii`
 * where the item may also match a non-ASCII character: `.`, a negated class, `\s`, `\D`,
 * `\W`, `\S`), sequences, alternatives, repeats (`lazy` for `+?` and the like, which only a
 * match's extent tells apart) and the line's edges.
 */
export type RegexNode =
  | { type: 'set'; set: Uint8Array; nonAscii: boolean }
  | { type: 'sequence'; items: RegexNode[] }
  | { type: 'either'; options: RegexNode[] }
  | { type: 'repeat'; item: RegexNode; min: number; max: number; lazy: boolean }
  | { type: 'edge'; at: 'start' | 'end' };

const digits = '0123456789';
const wordCharacters = `${digits}ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_`;
/** JavaScript's `\s` in ASCII; it also holds non-ASCII spaces. */
const spaces = ' \t\n\v\f\r';
const controlEscapes: Record<string, number> = { t: 9, r: 13, f: 12, v: 11 };
/** `{n}`, `{n,}` or `{n,m}`, a quantifier whatever its digits; any other `{` is itself. */
const countedQuantifier = /^\{(\d+)(,(\d*))?\}/;
/** Counts past this are left to the regex: no automaton or walk is built for them. */
const maxCount = 9999;

/** Thrown inside the parser for anything it does not take; `parseRegex` answers `undefined`. */
class Unsupported extends Error {}

/**
 * The syntax tree of `source`, a JavaScript regex without the `u` flag, with ASCII letters
 * folded into both cases for `ignoreCase`; `undefined` for a regex it does not take:
 * non-ASCII characters, lookarounds, backreferences, `\b`, `\n`, escapes other than `\d \D
 * \w \W \s \S \t \r \f \v \xHH`, punctuation and space. `.` is flag `s`'s: any character.
 *
 * @example
 * ```ts
 * parseRegex('[0-9]+ms', false)?.type; // 'sequence'
 * parseRegex('(?<=a)b', false); // undefined
 * ```
 */
export function parseRegex(source: string, ignoreCase: boolean): RegexNode | undefined {
  try {
    return new Parser(source, ignoreCase).parse();
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
}

class Parser {
  #at = 0;
  readonly #source: string;
  readonly #ignoreCase: boolean;

  constructor(source: string, ignoreCase: boolean) {
    this.#source = source;
    this.#ignoreCase = ignoreCase;
  }

  parse(): RegexNode {
    const node = this.#either();
    if (this.#at !== this.#source.length) throw new Unsupported();
    return node;
  }

  #either(): RegexNode {
    const options = [this.#sequence()];
    while (this.#source[this.#at] === '|') {
      this.#at++;
      options.push(this.#sequence());
    }
    return options.length === 1 ? (options[0] as RegexNode) : { type: 'either', options };
  }

  #sequence(): RegexNode {
    const items: RegexNode[] = [];
    for (let character = this.#source[this.#at]; character !== undefined; ) {
      if (character === '|' || character === ')') break;
      const atom = this.#atom();
      items.push(this.#quantified(atom));
      character = this.#source[this.#at];
    }
    return { type: 'sequence', items };
  }

  #atom(): RegexNode {
    const source = this.#source;
    const character = source[this.#at] as string;
    this.#at++;
    if (character === '(') {
      if (source[this.#at] === '?') {
        if (source[this.#at + 1] === ':') this.#at += 2;
        else if (source[this.#at + 1] === '<' && /[A-Za-z_$]/.test(source[this.#at + 2] ?? '')) {
          const close = source.indexOf('>', this.#at);
          if (close === -1) throw new Unsupported();
          this.#at = close + 1;
        } else throw new Unsupported();
      }
      const inner = this.#either();
      if (source[this.#at] !== ')') throw new Unsupported();
      this.#at++;
      return inner;
    }
    if (character === '^') return { type: 'edge', at: 'start' };
    if (character === '$') return { type: 'edge', at: 'end' };
    if (character === '.') return this.#set(allAscii(), true);
    if (character === '[') return this.#class();
    if (character === '\\') {
      const escaped = this.#escape(false);
      return this.#set(escaped.set, escaped.nonAscii);
    }
    if ('*+?)'.includes(character)) throw new Unsupported();
    if (character === '{' && countedQuantifier.test(source.slice(this.#at - 1))) {
      throw new Unsupported(); // a quantifier with nothing to repeat
    }
    // A `{` that starts no quantifier, a `}` and a `]` are themselves without the `u` flag.
    return this.#set(bytesOf(character), false);
  }

  #set(set: Uint8Array, nonAscii: boolean): RegexNode {
    if (this.#ignoreCase) {
      for (let byte = 0x41; byte <= 0x5a; byte++) {
        if (set[byte] || set[byte | 0x20]) set[byte] = set[byte | 0x20] = 1;
      }
    }
    return { type: 'set', set, nonAscii };
  }

  /** The escape after a `\`, in a class (where `\b` is a backspace) or not. */
  #escape(inClass: boolean): { set: Uint8Array; nonAscii: boolean } {
    const source = this.#source;
    const escaped = source[this.#at] ?? '';
    this.#at++;
    const negated = 'DWS'.includes(escaped);
    const members = { d: digits, w: wordCharacters, s: spaces }[escaped.toLowerCase()];
    if (members !== undefined && (negated || 'dws'.includes(escaped))) {
      const set = bytesOf(members);
      if (negated) for (let byte = 0; byte < 0x80; byte++) set[byte] = set[byte] ? 0 : 1;
      return { set, nonAscii: negated || escaped === 's' };
    }
    const control = controlEscapes[escaped] ?? (inClass && escaped === 'b' ? 8 : undefined);
    if (control !== undefined) return { set: byteSet(control), nonAscii: false };
    if (escaped === 'x') {
      const hex = /^[0-9A-Fa-f]{2}/.exec(source.slice(this.#at))?.[0];
      const code = hex === undefined ? 0x80 : Number.parseInt(hex, 16);
      if (code >= 0x80 || code === 0x0a) throw new Unsupported();
      this.#at += 2;
      return { set: byteSet(code), nonAscii: false };
    }
    if (/^[\x20-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]$/.test(escaped)) {
      return { set: bytesOf(escaped), nonAscii: false };
    }
    throw new Unsupported();
  }

  #class(): RegexNode {
    const source = this.#source;
    const negated = source[this.#at] === '^';
    if (negated) this.#at++;
    const set = new Uint8Array(256);
    let nonAscii = negated;
    while (source[this.#at] !== ']') {
      const low = this.#classMember();
      if (low === undefined) throw new Unsupported();
      if (typeof low !== 'number') {
        for (let byte = 0; byte < 0x80; byte++) if (low.set[byte]) set[byte] = 1;
        nonAscii ||= low.nonAscii;
        continue;
      }
      if (source[this.#at] === '-' && source[this.#at + 1] !== ']') {
        this.#at++;
        const high = this.#classMember();
        if (typeof high !== 'number' || high < low) throw new Unsupported();
        for (let byte = low; byte <= high; byte++) set[byte] = 1;
      } else set[low] = 1;
    }
    this.#at++;
    // Folding applies before negation: `[^a]` with `i` refuses `A` too.
    const { set: folded } = this.#set(set, nonAscii) as { set: Uint8Array };
    if (negated) for (let byte = 0; byte < 0x80; byte++) folded[byte] = folded[byte] ? 0 : 1;
    folded[0x0a] = 0;
    return { type: 'set', set: folded, nonAscii };
  }

  /** A class member: one byte, or the set of `\d`-like escapes; `undefined` past the source. */
  #classMember(): number | { set: Uint8Array; nonAscii: boolean } | undefined {
    const character = this.#source[this.#at];
    if (character === undefined) return undefined;
    this.#at++;
    if (character === '\\') {
      const escaped = this.#escape(true);
      const members = escaped.set.reduce((count, member) => count + member, 0);
      if (members !== 1 || escaped.nonAscii) return escaped;
      return escaped.set.indexOf(1);
    }
    const code = character.charCodeAt(0);
    if (code >= 0x80 || code === 0x0a) throw new Unsupported();
    return code;
  }

  #quantified(atom: RegexNode): RegexNode {
    const source = this.#source;
    let min: number;
    let max: number;
    const character = source[this.#at];
    if (character === '?' || character === '*' || character === '+') {
      min = character === '+' ? 1 : 0;
      max = character === '?' ? 1 : Number.POSITIVE_INFINITY;
      this.#at++;
    } else if (character === '{') {
      const braces = countedQuantifier.exec(source.slice(this.#at));
      if (!braces) return atom;
      min = Number(braces[1]);
      max =
        braces[2] === undefined ? min : braces[3] ? Number(braces[3]) : Number.POSITIVE_INFINITY;
      if (max < min || min > maxCount || (braces[3] && max > maxCount)) throw new Unsupported();
      this.#at += braces[0].length;
    } else return atom;
    if (atom.type === 'edge') throw new Unsupported();
    const lazy = source[this.#at] === '?';
    if (lazy) this.#at++;
    return { type: 'repeat', item: atom, min, max, lazy };
  }
}

function byteSet(code: number): Uint8Array {
  const set = new Uint8Array(256);
  set[code] = 1;
  return set;
}

function bytesOf(characters: string): Uint8Array {
  const set = new Uint8Array(256);
  for (const character of characters) {
    const code = character.charCodeAt(0);
    if (code >= 0x80) throw new Unsupported();
    set[code] = 1;
  }
  return set;
}

/** `.`: every ASCII byte but `\n`, which no line holds. */
function allAscii(): Uint8Array {
  const set = new Uint8Array(256);
  set.fill(1, 0, 0x80);
  set[0x0a] = 0;
  return set;
}
