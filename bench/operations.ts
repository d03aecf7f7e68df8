import { rareLiteral } from './generate-log.js';
import type { CommandSpec } from './measure.js';

/**
 * Which column a tool's time is the reference for: every row is compared with its operation's
 * `gnu` command, and grep rows with `ripgrep` too.
 *
 * @example
 * ```ts
 * const role: ToolRole = 'spoolforge';
 * ```
 */
export type ToolRole = 'gnu' | 'ripgrep' | 'spoolforge' | 'other';

/**
 * One tool's command for an operation.
 *
 * @example
 * ```ts
 * const command: ToolCommand = { tool: 'GNU tail', role: 'gnu', argv: ['tail', '-n', '100', log] };
 * ```
 */
export interface ToolCommand extends CommandSpec {
  tool: string;
  role: ToolRole;
}

/**
 * Something a user does to a big log, as each tool spells it. All commands print the same
 * bytes, which the benchmark checks against the GNU command's output.
 *
 * @example
 * ```ts
 * const operation: Operation = { name: 'tail -n 100', commands: [gnuTail, spoolforgeTail] };
 * ```
 */
export interface Operation {
  name: string;
  commands: ToolCommand[];
}

/**
 * What the operations need to know about this run.
 *
 * @example
 * ```ts
 * const context: OperationContext = { logPath, cliPath, naiveScriptPath, lineCount, ripgrep: true };
 * ```
 */
export interface OperationContext {
  logPath: string;
  /** The built CLI, `dist/cli/main.js`. */
  cliPath: string;
  /** The compiled `children/naive-count.ts`. */
  naiveScriptPath: string;
  /** Lines in the log, to place the `sed` range. */
  lineCount: number;
  /** Whether `rg` is installed. */
  ripgrep: boolean;
}

/** Lines printed by the range operation. */
export const rangeLength = 1000;

/**
 * The operations to time, in report order: grep rows (GNU grep, ripgrep when installed, the
 * spoolforge CLI, and for the rare literal the naive Node approach), then tail, head, a line
 * range near 90% of the file and the line count.
 *
 * @example
 * ```ts
 * for (const operation of buildOperations(context)) console.log(operation.name);
 * ```
 */
export function buildOperations(context: OperationContext): Operation[] {
  const { logPath, cliPath, naiveScriptPath, lineCount } = context;
  const spoolforge = (...argv: string[]): ToolCommand => ({
    tool: 'spoolforge CLI',
    role: 'spoolforge',
    argv: [process.execPath, cliPath, ...argv, logPath],
  });
  const grepOperation = (name: string, grepFlags: string[], sharedFlags: string[]) => {
    const pattern = sharedFlags.at(-1) ?? '';
    const flags = sharedFlags.slice(0, -1);
    const commands: ToolCommand[] = [
      {
        tool: 'GNU grep',
        role: 'gnu',
        argv: ['grep', '-a', ...grepFlags, ...flags, pattern, logPath],
      },
    ];
    if (context.ripgrep) {
      commands.push({ tool: 'ripgrep', role: 'ripgrep', argv: ['rg', ...flags, pattern, logPath] });
    }
    commands.push(spoolforge('grep', ...flags, pattern));
    return { name, commands };
  };
  const first = Math.max(1, Math.floor(lineCount * 0.9));
  const last = first + rangeLength - 1;
  return [
    (() => {
      const operation = grepOperation('grep -c rare literal', [], ['-c', rareLiteral]);
      operation.commands.push({
        tool: 'node readline+RegExp',
        role: 'other',
        argv: [process.execPath, naiveScriptPath, logPath, rareLiteral],
      });
      return operation;
    })(),
    grepOperation('grep -c frequent literal (INFO)', [], ['-c', 'INFO']),
    // -E for GNU grep: the pattern means the same in ERE and in JavaScript.
    grepOperation("grep -c regex 'ERROR .*timeout'", ['-E'], ['-c', 'ERROR .*timeout']),
    grepOperation('grep -c -i rare literal', [], ['-c', '-i', rareLiteral.toLowerCase()]),
    grepOperation('grep -n -C 3 rare literal', [], ['-n', '-C', '3', rareLiteral]),
    {
      name: 'tail -n 100',
      commands: [
        { tool: 'GNU tail', role: 'gnu', argv: ['tail', '-n', '100', logPath] },
        spoolforge('tail', '-n', '100'),
      ],
    },
    {
      name: 'head -n 100',
      commands: [
        { tool: 'GNU head', role: 'gnu', argv: ['head', '-n', '100', logPath] },
        spoolforge('head', '-n', '100'),
      ],
    },
    {
      name: `lines ${first}-${last} (90%)`,
      commands: [
        { tool: 'GNU sed', role: 'gnu', argv: ['sed', '-n', `${first},${last}p`, logPath] },
        // What a sed user who knows the trick types: quit at the end of the range.
        {
          tool: 'GNU sed, q at end',
          role: 'other',
          argv: ['sed', '-n', `${first},${last}p;${last}q`, logPath],
        },
        spoolforge('lines', String(first), String(last)),
      ],
    },
    {
      name: 'count lines',
      // Standard input, so wc prints the number alone, as spoolforge count does.
      commands: [
        { tool: 'GNU wc -l', role: 'gnu', argv: ['wc', '-l'], stdinPath: logPath },
        spoolforge('count'),
      ],
    },
  ];
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
  const quoted = command.argv.map((word) =>
    /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`,
  );
  return command.stdinPath ? `${quoted.join(' ')} < ${command.stdinPath}` : quoted.join(' ');
}
