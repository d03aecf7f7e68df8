/**
 * Where a JSON text first goes wrong: the UTF-16 index into the text and what was expected.
 */
export interface JsonSyntaxProblem {
  index: number;
  message: string;
}

const whitespace = new Set([' ', '\t', '\n', '\r']);
const literals = ['true', 'false', 'null'];
const numberPattern = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const escapePattern = /\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/y;

/**
 * Finds the first syntax error of a JSON text, or `undefined` when it is valid. Node 20's
 * `JSON.parse` often names no position, and a model needs a line and column to look at; this
 * runs only after `JSON.parse` has failed. With `allowTruncation`, running out of text is not an
 * error (for sniffing the first bytes of a longer document).
 *
 * @example
 * ```ts
 * findJsonSyntaxError('{"a": }'); // { index: 6, message: "Expected a value, found '}'" }
 * ```
 */
export function findJsonSyntaxError(
  text: string,
  options: { allowTruncation?: boolean } = {},
): JsonSyntaxProblem | undefined {
  const truncated = Symbol('truncated');
  let index = 0;
  const fail = (message: string): never => {
    throw { index, message };
  };
  const found = () =>
    index < text.length ? `'${String.fromCodePoint(text.codePointAt(index) ?? 0)}'` : 'the end';
  const skipWhitespace = () => {
    while (index < text.length && whitespace.has(text[index] as string)) index++;
    if (index >= text.length && options.allowTruncation) throw truncated;
  };
  const string = () => {
    index++;
    for (;;) {
      if (index >= text.length) {
        if (options.allowTruncation) throw truncated;
        fail('Unterminated string');
      }
      const code = text.charCodeAt(index);
      if (code === 0x22) return void index++;
      if (code < 0x20) fail('Control character in a string (escape it)');
      if (code === 0x5c) {
        escapePattern.lastIndex = index;
        if (!escapePattern.test(text)) {
          if (options.allowTruncation && text.length - index < 6) throw truncated;
          fail('Invalid escape in a string');
        }
        index = escapePattern.lastIndex;
      } else index++;
    }
  };
  // An explicit stack rather than recursion: a deeply nested document must not overflow.
  const stack: ('array' | 'object')[] = [];
  const value = () => {
    skipWhitespace();
    const character = text[index];
    if (character === '{' || character === '[') {
      stack.push(character === '{' ? 'object' : 'array');
      index++;
      return true;
    }
    if (character === '"') string();
    else if (character !== undefined && /[-0-9]/.test(character)) {
      numberPattern.lastIndex = index;
      if (!numberPattern.test(text)) fail(`Invalid number, found ${found()}`);
      index = numberPattern.lastIndex;
      if (index >= text.length && options.allowTruncation) throw truncated;
    } else {
      const literal = literals.find((word) => text.startsWith(word, index));
      if (!literal) {
        const prefix = literals.some((word) => word.startsWith(text.slice(index)));
        if (options.allowTruncation && prefix) throw truncated;
        fail(`Expected a value, found ${found()}`);
      }
      index += (literal as string).length;
    }
    return false;
  };
  const member = () => {
    skipWhitespace();
    if (text[index] !== '"') fail(`Expected a property name in double quotes, found ${found()}`);
    string();
    skipWhitespace();
    if (text[index] !== ':') fail(`Expected ':' after a property name, found ${found()}`);
    index++;
    return value();
  };
  try {
    let opened = value();
    for (;;) {
      const container = stack.at(-1);
      if (container === undefined) break;
      const close = container === 'object' ? '}' : ']';
      if (opened) {
        opened = false;
        skipWhitespace();
        if (text[index] === close) {
          stack.pop();
          index++;
          continue;
        }
        opened = container === 'object' ? member() : value();
        continue;
      }
      skipWhitespace();
      if (text[index] === ',') {
        index++;
        opened = container === 'object' ? member() : value();
      } else if (text[index] === close) {
        stack.pop();
        index++;
      } else {
        const after = container === 'object' ? 'a property value' : 'an array element';
        fail(`Expected ',' or '${close}' after ${after}, found ${found()}`);
      }
    }
    while (index < text.length && whitespace.has(text[index] as string)) index++;
    if (index < text.length) fail(`Unexpected ${found()} after the JSON value`);
    return undefined;
  } catch (problem) {
    if (problem === truncated) return undefined;
    return problem as JsonSyntaxProblem;
  }
}
