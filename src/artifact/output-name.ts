import { quoteInput } from '../shared/quote-input.js';
import { SpoolforgeError } from '../shared/spoolforge-error.js';

/** The longest output name: every later handle, listing and `callId` enum shows it. */
const maxNameChars = 100;

/**
 * `name` checked as an output's name (`undefined` is none): one line of 1 to 100 characters,
 * not only whitespace, since a model passes it as a `callId` or a reference and reads it in
 * one-line handles and listings. Else a `code` error: `E_INVALID_TOOL_ARGS` for a name from a
 * model's arguments, `E_INVALID_ARGUMENT` for one given by code.
 *
 * @example
 * ```ts
 * checkOutputName('report-2024-q4', 'E_INVALID_ARGUMENT'); // 'report-2024-q4'
 * checkOutputName('  ', 'E_INVALID_TOOL_ARGS'); // throws: the name is empty
 * ```
 */
export function checkOutputName(
  name: string | undefined,
  code: 'E_INVALID_TOOL_ARGS' | 'E_INVALID_ARGUMENT',
): string | undefined {
  const fault = name === undefined ? undefined : nameFault(name);
  if (fault === undefined) return name;
  throw new SpoolforgeError(
    code,
    `An output's name must be one line of 1 to ${maxNameChars} characters, not only spaces, like "q4-rows" (${fault})`,
  );
}

/**
 * Whether `name` passes {@link checkOutputName}: a label given for another reason (a file's
 * base name for `Media`) is kept as an output's name only then.
 *
 * @example
 * ```ts
 * isOutputName('chart.png'); // true
 * isOutputName('a\nb'); // false
 * ```
 */
export function isOutputName(name: string): boolean {
  return nameFault(name) === undefined;
}

/** What is wrong with `name` as an output's name, if anything. */
function nameFault(name: string): string | undefined {
  // Control characters would break the one-line handle and listing rows the name is shown in.
  return name.trim() === ''
    ? `got ${JSON.stringify(name)}, which names nothing`
    : name.length > maxNameChars
      ? `got ${name.length} characters`
      : /\p{Cc}/u.test(name)
        ? `got ${JSON.stringify(quoteInput(name, maxNameChars))}, with a control character`
        : undefined;
}
