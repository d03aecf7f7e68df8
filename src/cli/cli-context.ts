import type { Output } from './output.js';

/**
 * What a command runs against: standard input, buffered standard output, standard error.
 */
export interface CliContext {
  stdin: AsyncIterable<Uint8Array>;
  output: Output;
  stderr: NodeJS.WriteStream;
}

/**
 * A command: parses its own arguments and returns the exit status (errors are thrown).
 */
export type Command = (argv: readonly string[], context: CliContext) => Promise<number>;
