#!/usr/bin/env node
import { SpoolforgeError } from '../shared/spoolforge-error.js';
import type { CliContext, Command } from './cli-context.js';
import { countCommand, statCommand } from './count-stat-commands.js';
import { grepCommand } from './grep-command.js';
import { headCommand, linesCommand, tailCommand } from './head-tail-commands.js';
import { Output } from './output.js';

const usage = `Usage:
  spoolforge head  [-n N] SOURCE
  spoolforge tail  [-n N] SOURCE
  spoolforge grep  [-F] [-i] [-v] [-c] [-n] [-m N] [-A N] [-B N] [-C N] PATTERN SOURCE
  spoolforge lines START END SOURCE     # 1-based inclusive, as sed -n 'START,ENDp'
  spoolforge count SOURCE               # lines; a final line without a newline counts
  spoolforge stat  SOURCE               # JSON: bytes, lines, detected kind

SOURCE is a file path, an http(s) URL (read with Range requests) or - for standard input.
PATTERN is a JavaScript regular expression (-F for a fixed string). Exit status: 0 found/ok,
1 nothing found (grep), 2 error.
`;

const commands: Record<string, Command> = {
  head: headCommand,
  tail: tailCommand,
  grep: grepCommand,
  lines: linesCommand,
  count: countCommand,
  stat: statCommand,
};

/**
 * Runs the CLI with `argv` (without `node` and the script) and returns the exit status.
 * Failures print one line on standard error and return 2.
 *
 * @example
 * ```ts
 * process.exitCode = await runCli(['grep', '-c', 'ERROR', 'build.log'], context);
 * ```
 */
async function runCli(argv: readonly string[], context: CliContext): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--help' || name === '-h') {
    context.output.writeText(usage);
    return 0;
  }
  const command = name === undefined ? undefined : commands[name];
  try {
    if (!command) {
      context.stderr.write(
        `spoolforge: ${name ? `unknown command '${name}'` : 'missing command'}\n${usage}`,
      );
      return 2;
    }
    return await command(rest, context);
  } catch (error) {
    const message = SpoolforgeError.isInstance(error)
      ? error.message
      : String((error as Error)?.message ?? error);
    context.stderr.write(`spoolforge: ${message.split('\n')[0]}\n`);
    return 2;
  } finally {
    await context.output.end().catch(() => undefined);
  }
}

const output = new Output(process.stdout);
const status = await runCli(process.argv.slice(2), {
  stdin: process.stdin,
  output,
  stderr: process.stderr,
});
process.exit(status);
