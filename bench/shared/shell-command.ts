import type { CommandSpec } from './measure.js';

/**
 * A word as a POSIX shell reads it back: as it is when it holds nothing special, else quoted.
 *
 * @example
 * ```ts
 * shellWord('a b'); // "'a b'"
 * ```
 */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

/**
 * A command as a user would type it (quoted for a POSIX shell), for the report.
 *
 * @example
 * ```ts
 * shellCommand({ argv: ['grep', '-c', 'a b', 'x.log'] }); // "grep -c 'a b' x.log"
 * ```
 */
export function shellCommand(command: CommandSpec): string {
  const quoted = command.argv.map(shellWord).join(' ');
  return command.stdinPath ? `${quoted} < ${command.stdinPath}` : quoted;
}
