import type { Output } from './output.js';

/**
 * What a command runs against: standard input, buffered standard output, standard error.
 *
 * @example
 * ```ts
 * const context: CliContext = { stdin: process.stdin, output: new Output(process.stdout), stderr: process.stderr };
 * ```
 */
export interface CliContext {
  stdin: AsyncIterable<Uint8Array>;
  output: Output;
  stderr: NodeJS.WriteStream;
}

/**
 * A command: parses its own arguments and returns the exit status (errors are thrown).
 *
 * @example
 * ```ts
 * const count: Command = async (argv, context) => 0;
 * ```
 */
export type Command = (argv: readonly string[], context: CliContext) => Promise<number>;
