import {
  binaryNode,
  callNode,
  constantNode,
  type FilterNode,
  isMemberNode,
  type JsonFilterScope,
  memberNode,
} from './json-filter-nodes.js';

const scopeNames = new Set(['_$_v', '_$_root', '_$_property', '_$_parent', '_$_parentProperty']);
const literals = new Map<string, unknown>([
  ['true', true],
  ['false', false],
  ['null', null],
  ['undefined', undefined],
]);
const binaryPrecedence = new Map([
  ['||', 1],
  ['&&', 2],
  ['==', 6],
  ['!=', 6],
  ['===', 6],
  ['!==', 6],
  ['<', 7],
  ['>', 7],
  ['<=', 7],
  ['>=', 7],
  ['+', 9],
  ['-', 9],
  ['*', 10],
  ['/', 10],
  ['%', 10],
]);
/**
 * Every operator jsep reads with jsonpath-plus's plugins (assignment and update included),
 * longest first, so `<<` is never taken for `<` nor `--` for `-`.
 */
const operators = (
  '>>>= >>> <<= >>= **= ||= &&= ??= === !== ** || && ?? == != <= >= << >> =~ ++ -- += -= *= /= %= &= |= ^= ' +
  '< > + - * / % | & ^ ! ~ = ?'
)
  .split(' ')
  .sort((a, b) => b.length - a.length);
const escapes: Record<string, string> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f', v: '\v' };

/** Thrown inside the compiler for anything outside its subset: the caller falls back. */
export class UnsupportedFilter extends Error {}

/**
 * Parses a filter script of the compiled subset into {@link FilterNode}s, as jsep reads it;
 * anything outside the subset throws {@link UnsupportedFilter}.
 *
 * @example
 * ```ts
 * const node = new JsonFilterParser('_$_v.size > 10').parse();
 * ```
 */
export class JsonFilterParser {
  #at = 0;
  readonly #text: string;

  constructor(text: string) {
    this.#text = text;
  }

  parse(): FilterNode {
    const node = this.#binary(0);
    this.#spaces();
    if (this.#at !== this.#text.length) throw new UnsupportedFilter();
    return node;
  }

  #spaces(): void {
    while (/[ \t\n\r]/.test(this.#text[this.#at] ?? '')) this.#at++;
  }

  #operator(): string | undefined {
    this.#spaces();
    return operators.find((operator) => this.#text.startsWith(operator, this.#at));
  }

  /** Left-associative binary operators by precedence, as jsep builds them. */
  #binary(minimum: number): FilterNode {
    let left = this.#unary();
    for (;;) {
      const operator = this.#operator();
      const precedence = operator === undefined ? undefined : binaryPrecedence.get(operator);
      // Whatever else follows is checked by the caller: the end, `)`, `,` or `]`.
      if (operator === undefined || precedence === undefined || precedence <= minimum) return left;
      this.#at += operator.length;
      left = binaryNode(operator, left, this.#binary(precedence));
    }
  }

  #unary(): FilterNode {
    const operator = this.#operator();
    if (operator === '!' || operator === '-' || operator === '+') {
      this.#at += 1;
      const argument = this.#unary();
      if (operator === '!') return (scope) => !argument(scope);
      return operator === '-'
        ? (scope) => -(argument(scope) as number)
        : (scope) => +(argument(scope) as number);
    }
    if (this.#word() === 'typeof') {
      this.#at += 'typeof'.length;
      // Plain jsep reads `typeof(x)` as a call: left to jsonpath-plus.
      this.#spaces();
      if (this.#text[this.#at] === '(') throw new UnsupportedFilter();
      const argument = this.#unary();
      return (scope) => typeof argument(scope);
    }
    return this.#primary();
  }

  /** The identifier at the cursor, if one starts there. */
  #word(): string | undefined {
    const match = /^[A-Za-z$_][\w$]*/.exec(this.#text.slice(this.#at, this.#at + 64));
    const next = this.#text.charCodeAt(this.#at + (match?.[0].length ?? 0));
    if (!match || next >= 128 || match[0].length === 64) return undefined;
    return match[0];
  }

  #primary(): FilterNode {
    this.#spaces();
    const char = this.#text[this.#at];
    if (char === '"' || char === "'") return constantNode(this.#string(char));
    if (char !== undefined && /[0-9]/.test(char)) return constantNode(this.#number());
    if (char === '(') {
      this.#at++;
      const inner = this.#binary(0);
      this.#expect(')');
      return this.#members(inner);
    }
    const word = this.#word();
    if (word === undefined) throw new UnsupportedFilter();
    this.#at += word.length;
    if (literals.has(word)) return constantNode(literals.get(word));
    if (!scopeNames.has(word)) throw new UnsupportedFilter();
    const name = word as keyof JsonFilterScope;
    return this.#members((scope) => scope[name]);
  }

  /** `.name`, `['name']` and method calls after a value. */
  #members(node: FilterNode): FilterNode {
    for (;;) {
      this.#spaces();
      const char = this.#text[this.#at];
      if (char === '.') {
        this.#at++;
        this.#spaces();
        const name = this.#word();
        if (name === undefined) throw new UnsupportedFilter();
        this.#at += name.length;
        node = memberNode(node, name);
      } else if (char === '[') {
        this.#at++;
        this.#spaces();
        const quote = this.#text[this.#at] ?? '';
        if (quote === '"' || quote === "'") node = memberNode(node, this.#string(quote));
        else if (/[0-9]/.test(quote)) node = memberNode(node, String(this.#number()));
        else throw new UnsupportedFilter();
        this.#expect(']');
      } else if (char === '(' && isMemberNode(node)) {
        this.#at++;
        node = callNode(node, this.#arguments());
      } else {
        return node;
      }
    }
  }

  #arguments(): FilterNode[] {
    const list: FilterNode[] = [];
    this.#spaces();
    if (this.#text[this.#at] === ')') {
      this.#at++;
      return list;
    }
    for (;;) {
      list.push(this.#binary(0));
      this.#spaces();
      const char = this.#text[this.#at++];
      if (char === ')') return list;
      if (char !== ',') throw new UnsupportedFilter();
    }
  }

  #expect(char: string): void {
    this.#spaces();
    if (this.#text[this.#at] !== char) throw new UnsupportedFilter();
    this.#at++;
  }

  #string(quote: string): string {
    let value = '';
    for (let at = this.#at + 1; at < this.#text.length; at++) {
      let char = this.#text[at] as string;
      if (char === quote) {
        this.#at = at + 1;
        return value;
      }
      if (char === '\\') {
        char = this.#text[++at] ?? '';
        value += escapes[char] ?? char;
      } else {
        value += char;
      }
    }
    throw new UnsupportedFilter();
  }

  #number(): number {
    const match = /^\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(this.#text.slice(this.#at));
    const text = match?.[0] ?? '';
    this.#at += text.length;
    // `1.`, `1e`, `1abc` and `1.x` are jsep's errors or edge cases: left to it.
    if (/[\w$.]/.test(this.#text[this.#at] ?? '') || this.#text.charCodeAt(this.#at) >= 128)
      throw new UnsupportedFilter();
    return Number.parseFloat(text);
  }
}
