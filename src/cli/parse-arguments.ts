import { SpoolforgeError } from '../shared/spoolforge-error.js';

/**
 * One option a command accepts: its short letter and/or long name, and whether it takes a
 * value (`-m 5`, `-m5`, `--max-count=5`, `--timeout 3`).
 */
export type OptionSpec = ({ short: string; long?: string } | { short?: never; long: string }) & {
  takesValue?: boolean;
  /** May be given more than once, each value kept in order (`grep -e A -e B`). */
  repeatable?: boolean;
};

/**
 * Options by short letter, or long name for an option without one (a flag's value is `''`;
 * the last occurrence wins and iterates last, so of `-H` and `-h` the later one can be told),
 * and operands.
 *
 * @example
 * ```ts
 * const { options, operands } = parseArguments(['-n', '5', 'build.log'], [{ short: 'n', takesValue: true }]);
 * ```
 */
export interface ParsedArguments {
  options: Map<string, string>;
  /** Every value of each `repeatable` option given, in order. */
  repeated: Map<string, string[]>;
  operands: string[];
}

/**
 * getopt-style parsing as GNU tools do it: bundled flags (`-inv`), attached values (`-C3`),
 * long options (`--count`, `--context=3`), options after operands, and `--` to end options
 * (so a pattern may start with `-`). A lone `-` is an operand (standard input).
 *
 * @example
 * ```ts
 * parseArguments(['-ic', 'error', '-'], [{ short: 'i' }, { short: 'c' }]);
 * // { options: Map { 'i' => '', 'c' => '' }, repeated: Map {}, operands: ['error', '-'] }
 * ```
 */
export function parseArguments(
  argv: readonly string[],
  specs: readonly OptionSpec[],
): ParsedArguments {
  const options = new Map<string, string>();
  const repeated = new Map<string, string[]>();
  const operands: string[] = [];
  const byShort = new Map(specs.map((spec) => [spec.short, spec]));
  const byLong = new Map(specs.map((spec) => [spec.long, spec]));
  const set = (spec: OptionSpec, value: string) => {
    const key = spec.short ?? spec.long;
    options.delete(key);
    options.set(key, value);
    if (spec.repeatable) repeated.set(key, [...(repeated.get(key) ?? []), value]);
  };
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index] ?? '';
    if (argument === '--') {
      operands.push(...argv.slice(index + 1));
      break;
    }
    if (argument.startsWith('--')) {
      const [name = '', inline] = splitOnce(argument.slice(2), '=');
      const spec = name ? byLong.get(name) : undefined;
      if (!spec) throw usageError(`unrecognized option '--${name}'`);
      if (spec.takesValue) {
        const value = inline ?? argv[++index];
        if (value === undefined) throw usageError(`option '--${name}' requires an argument`);
        set(spec, value);
      } else {
        if (inline !== undefined) throw usageError(`option '--${name}' doesn't allow an argument`);
        set(spec, '');
      }
      continue;
    }
    if (argument.length < 2 || !argument.startsWith('-')) {
      operands.push(argument);
      continue;
    }
    for (let position = 1; position < argument.length; position++) {
      const letter = argument[position] ?? '';
      const spec = byShort.get(letter);
      if (!spec) throw usageError(`invalid option -- '${letter}'`);
      if (!spec.takesValue) {
        set(spec, '');
        continue;
      }
      const value = position + 1 < argument.length ? argument.slice(position + 1) : argv[++index];
      if (value === undefined) throw usageError(`option requires an argument -- '${letter}'`);
      set(spec, value);
      break;
    }
  }
  return { options, repeated, operands };
}

/**
 * Parses a count the way GNU tools accept one: decimal digits, optionally signed when `signs`
 * allows. Returns the number and the sign that was written.
 *
 * @example
 * ```ts
 * parseCount('+5', 'lines', { signs: true }); // { value: 5, sign: '+' }
 * ```
 */
export function parseCount(
  text: string,
  what: string,
  options: { signs?: boolean } = {},
): { value: number; sign: '+' | '-' | '' } {
  const match = (options.signs ? /^([+-]?)(\d+)$/ : /^()(\d+)$/).exec(text);
  const value = match ? Number(match[2]) : Number.NaN;
  if (!match || !Number.isSafeInteger(value))
    throw usageError(`invalid number of ${what}: '${text}'`);
  return { value, sign: (match[1] ?? '') as '+' | '-' | '' };
}

/**
 * An error in how the command was called; the CLI prints it and exits with status 2.
 *
 * @example
 * ```ts
 * throw usageError('missing SOURCE');
 * ```
 */
export function usageError(message: string): SpoolforgeError {
  return new SpoolforgeError('E_INVALID_ARGUMENT', message);
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator);
  return at === -1 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}
