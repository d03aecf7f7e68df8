/** The names jsonpath-plus binds in a filter: `@` is `_$_v`, `@root` is `_$_root`, and so on. */
export type JsonFilterScope = Record<
  '_$_v' | '_$_root' | '_$_property' | '_$_parent' | '_$_parentProperty',
  unknown
>;

/** A compiled filter: true when the entry matches; an expression that throws does not match. */
export type JsonFilterTest = (scope: JsonFilterScope) => boolean;

type Node = (scope: JsonFilterScope) => unknown;

/** The properties jsonpath-plus's safe evaluator refuses to read unless they are own. */
const blocked = new Set([
  'constructor',
  '__proto__',
  '__defineGetter__',
  '__defineSetter__',
  '__lookupGetter__',
  '__lookupSetter__',
]);
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
/** Member reads: only they are called, as methods. */
const members = new WeakSet<Node>();
const escapes: Record<string, string> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f', v: '\v' };

/** Thrown inside the compiler for anything outside its subset: the caller falls back. */
class Unsupported extends Error {}

/** A member the safe evaluator refuses to read: the filter then does not match (never escapes). */
class Unreadable extends Error {}

/**
 * Compiles a jsonpath-plus filter script (after its `@` → `_$_v` rewriting) into a closure, for
 * the subset that covers nearly every filter: comparisons, `&&`, `||`, `!`, `-`, `+`, `typeof`,
 * arithmetic, string and number literals, `true`/`false`/`null`/`undefined`, member access by
 * name or by a literal in brackets, and method calls (`@.name.startsWith('a')`). Its evaluation
 * is that of jsonpath-plus's safe evaluator, step for step (a member of `null` throws; a blocked
 * prototype property throws; a method is bound to its object), without `eval`, `Function` or
 * `vm`. Anything else (regular expressions, assignments, bitwise operators, arrays, `?:`) gives
 * `undefined`, so the caller uses jsonpath-plus itself, with its own errors.
 *
 * @example
 * ```ts
 * const test = compileJsonFilter('_$_v.status >= 500');
 * test?.({ _$_v: { status: 503 }, _$_root: null, _$_property: '0', _$_parent: null, _$_parentProperty: null }); // true
 * ```
 */
export function compileJsonFilter(script: string): JsonFilterTest | undefined {
  let node: Node;
  try {
    node = new FilterParser(script).parse();
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
  return (scope) => {
    try {
      return Boolean(node(scope));
    } catch {
      return false;
    }
  };
}

class FilterParser {
  #at = 0;
  readonly #text: string;

  constructor(text: string) {
    this.#text = text;
  }

  parse(): Node {
    const node = this.#binary(0);
    this.#spaces();
    if (this.#at !== this.#text.length) throw new Unsupported();
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
  #binary(minimum: number): Node {
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

  #unary(): Node {
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
      if (this.#text[this.#at] === '(') throw new Unsupported();
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

  #primary(): Node {
    this.#spaces();
    const char = this.#text[this.#at];
    if (char === '"' || char === "'") return constant(this.#string(char));
    if (char !== undefined && /[0-9]/.test(char)) return constant(this.#number());
    if (char === '(') {
      this.#at++;
      const inner = this.#binary(0);
      this.#expect(')');
      return this.#members(inner);
    }
    const word = this.#word();
    if (word === undefined) throw new Unsupported();
    this.#at += word.length;
    if (literals.has(word)) return constant(literals.get(word));
    if (!scopeNames.has(word)) throw new Unsupported();
    const name = word as keyof JsonFilterScope;
    return this.#members((scope) => scope[name]);
  }

  /** `.name`, `['name']` and method calls after a value. */
  #members(node: Node): Node {
    for (;;) {
      this.#spaces();
      const char = this.#text[this.#at];
      if (char === '.') {
        this.#at++;
        this.#spaces();
        const name = this.#word();
        if (name === undefined) throw new Unsupported();
        this.#at += name.length;
        node = memberNode(node, name);
      } else if (char === '[') {
        this.#at++;
        this.#spaces();
        const quote = this.#text[this.#at] ?? '';
        if (quote === '"' || quote === "'") node = memberNode(node, this.#string(quote));
        else if (/[0-9]/.test(quote)) node = memberNode(node, String(this.#number()));
        else throw new Unsupported();
        this.#expect(']');
      } else if (char === '(' && members.has(node)) {
        this.#at++;
        node = callNode(node, this.#arguments());
      } else {
        return node;
      }
    }
  }

  #arguments(): Node[] {
    const list: Node[] = [];
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
      if (char !== ',') throw new Unsupported();
    }
  }

  #expect(char: string): void {
    this.#spaces();
    if (this.#text[this.#at] !== char) throw new Unsupported();
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
    throw new Unsupported();
  }

  #number(): number {
    const match = /^\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(this.#text.slice(this.#at));
    const text = match?.[0] ?? '';
    this.#at += text.length;
    // `1.`, `1e`, `1abc` and `1.x` are jsep's errors or edge cases: left to it.
    if (/[\w$.]/.test(this.#text[this.#at] ?? '') || this.#text.charCodeAt(this.#at) >= 128)
      throw new Unsupported();
    return Number.parseFloat(text);
  }
}

function constant(value: unknown): Node {
  return () => value;
}

/** A member read as jsonpath-plus's safe evaluator does it. */
function memberNode(object: Node, property: string): Node {
  const member = (scope: JsonFilterScope) => {
    const target = object(scope) as Record<string, unknown> | null | undefined;
    if (target === undefined || target === null) throw new Unreadable();
    if (!Object.hasOwn(target, property) && blocked.has(property)) throw new Unreadable();
    const value = target[property];
    return typeof value === 'function' ? value.bind(target) : value;
  };
  members.add(member);
  return member;
}

function callNode(callee: Node, list: Node[]): Node {
  return (scope) => {
    const values = list.map((argument) => argument(scope));
    return (callee(scope) as (...values: unknown[]) => unknown)(...values);
  };
}

function binaryNode(operator: string, left: Node, right: Node): Node {
  type Pair = (a: unknown, b: unknown) => unknown;
  if (operator === '||') return (scope) => left(scope) || right(scope);
  if (operator === '&&') return (scope) => left(scope) && right(scope);
  const apply = (
    {
      // biome-ignore lint/suspicious/noDoubleEquals: the safe evaluator's loose equality
      '==': (a, b) => a == b,
      // biome-ignore lint/suspicious/noDoubleEquals: the safe evaluator's loose equality
      '!=': (a, b) => a != b,
      '===': (a, b) => a === b,
      '!==': (a, b) => a !== b,
      '<': (a, b) => (a as number) < (b as number),
      '>': (a, b) => (a as number) > (b as number),
      '<=': (a, b) => (a as number) <= (b as number),
      '>=': (a, b) => (a as number) >= (b as number),
      '+': (a, b) => (a as number) + (b as number),
      '-': (a, b) => (a as number) - (b as number),
      '*': (a, b) => (a as number) * (b as number),
      '/': (a, b) => (a as number) / (b as number),
      '%': (a, b) => (a as number) % (b as number),
    } satisfies Record<string, Pair>
  )[operator as '=='];
  return (scope) => apply(left(scope), right(scope));
}
