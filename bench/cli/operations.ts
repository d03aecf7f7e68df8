import { rareLiteral } from '../shared/generate-log.js';
import type { CommandSpec } from '../shared/measure.js';

/**
 * Which column a tool's time is the reference for: every row is compared with its operation's
 * `gnu` command, grep rows with `ripgrep` too, and with the faster of the two.
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
  /**
   * The CLI's line index cache for this command: `empty` runs it with a new, empty cache
   * directory (made again before every run), `filled` with the directory the `empty` command
   * before it filled in the same run. Without it the command gets the benchmark's shared one.
   */
  indexCache?: 'empty' | 'filled';
  /**
   * Runs at least this many times whatever `--runs` says: a start-up of tens of milliseconds
   * is noisy, so its rows take the median of many.
   */
  minimumRuns?: number;
  /** `false`: its output is not the operation's (a floor that only reads), so it is timed only. */
  comparesOutput?: false;
}

/**
 * A stable name for each operation, which the goals and the chart look rows up by (the
 * operation's display name carries line numbers).
 *
 * @example
 * ```ts
 * const key: OperationKey = 'rare-literal';
 * ```
 */
export type OperationKey =
  | 'rare-literal'
  | 'frequent-literal'
  | 'regex'
  | 'ignore-case'
  | 'context'
  | 'invert'
  | 'print'
  | 'node-startup'
  | 'tail'
  | 'head'
  | 'lines'
  | 'count'
  | 'spool'
  | 'estimate-tokens'
  | 'import';

/**
 * Something a user does to a big log, as each tool spells it. All commands print the same
 * bytes, which the benchmark checks against the GNU command's output.
 *
 * @example
 * ```ts
 * const operation: Operation = { key: 'tail', name: 'tail -n 100', commands: [gnuTail, spoolforgeTail] };
 * ```
 */
export interface Operation {
  key: OperationKey;
  name: string;
  commands: ToolCommand[];
}

/**
 * What the operations need to know about this run.
 *
 * @example
 * ```ts
 * const context: OperationContext = {
 *   logPath, cliPath, naiveScriptPath, floorScriptPath, lineCount, ripgrep: true,
 * };
 * ```
 */
export interface OperationContext {
  logPath: string;
  /** The built CLI, `dist/cli/main.js`. */
  cliPath: string;
  /** The compiled `children/naive-count.ts`. */
  naiveScriptPath: string;
  /** The compiled `children/node-floor.ts`. */
  floorScriptPath: string;
  /** Lines in the log, to place the `sed` range. */
  lineCount: number;
  /** Whether `rg` is installed. */
  ripgrep: boolean;
}

/** The tool name of the CLI's rows (rows of one operation add how they were called). */
export const cliTool = 'spoolforge CLI';

/** How the Node floor rows' tool names start. */
export const floorTool = 'Node floor';

/** Runs of the start-up rows (`node -e 0`, tail, head, the second `lines` call), at least. */
export const startupRuns = 10;

/** The grep rows, in report order: what the grep goals judge. */
export const grepOperationKeys = [
  'rare-literal',
  'frequent-literal',
  'regex',
  'ignore-case',
  'context',
  'invert',
  'print',
] as const satisfies readonly OperationKey[];

/** Lines printed by the range operation. */
export const rangeLength = 1000;
/** The line for `lines`: near line 30 M, or at 75% of a log with fewer lines. */
const rangeTargetLine = 30_000_000;
const rangeFallbackFraction = 0.75;

/**
 * The first line of the `lines` range: {@link rangeTargetLine}, or 75% of the way through a
 * log too short for it.
 *
 * @example
 * ```ts
 * rangeStartLine(39_422_763); // 30000000
 * rangeStartLine(9_852_489); // 7389366
 * ```
 */
export function rangeStartLine(lineCount: number): number {
  if (lineCount >= rangeTargetLine + rangeLength - 1) return rangeTargetLine;
  return Math.max(1, Math.floor(lineCount * rangeFallbackFraction));
}

/** `operation` with more commands after its own. */
const withCommands = (operation: Operation, ...commands: ToolCommand[]): Operation => ({
  ...operation,
  commands: [...operation.commands, ...commands],
});

/**
 * The operations to time, in report order: grep rows (GNU grep, ripgrep when installed, the
 * spoolforge CLI, and for the rare literal the naive Node approach; plain Node's floor under
 * the count and printing rows), counting or printing (`-n -C 3`, `-v`, every match) to a file;
 * `node -e 0`, the start-up the next rows are judged against; then tail, head, a line range near line 30 M (first call with an empty index
 * cache, second call with the index the first one saved) and the line count (empty cache: the
 * index is built). Start-up rows run at least {@link startupRuns} times.
 *
 * @example
 * ```ts
 * for (const operation of buildOperations(context)) console.log(operation.name);
 * ```
 */
export function buildOperations(context: OperationContext): Operation[] {
  const { logPath, cliPath, naiveScriptPath, floorScriptPath, lineCount } = context;
  const floor = (tool: string, mode: 'read' | 'print', ...rest: string[]): ToolCommand => ({
    tool: `${floorTool}: ${tool}`,
    role: 'other',
    argv: [process.execPath, floorScriptPath, mode, logPath, ...rest],
  });
  const spoolforge = (...argv: string[]): ToolCommand => ({
    tool: cliTool,
    role: 'spoolforge',
    argv: [process.execPath, cliPath, ...argv, logPath],
  });
  const startup = (command: ToolCommand): ToolCommand => ({
    ...command,
    minimumRuns: startupRuns,
  });
  const grepOperation = (
    key: OperationKey,
    name: string,
    grepFlags: string[],
    sharedFlags: string[],
  ): Operation => {
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
      // ripgrep maps a single file into memory by default; on some machines (this project's
      // 2-core VMs) reading it is 2-4x faster. The faster of the two is ripgrep's time.
      commands.push(
        { tool: 'ripgrep', role: 'ripgrep', argv: ['rg', ...flags, pattern, logPath] },
        {
          tool: 'ripgrep --no-mmap',
          role: 'ripgrep',
          argv: ['rg', '--no-mmap', ...flags, pattern, logPath],
        },
      );
    }
    commands.push(spoolforge('grep', ...flags, pattern));
    return { key, name, commands };
  };
  const first = rangeStartLine(lineCount);
  const last = first + rangeLength - 1;
  const where = first === rangeTargetLine ? 'near line 30 M' : '75%';
  return [
    withCommands(
      grepOperation('rare-literal', 'grep -c rare literal', [], ['-c', rareLiteral]),
      {
        tool: 'node readline+RegExp',
        role: 'other',
        argv: [process.execPath, naiveScriptPath, logPath, rareLiteral],
      },
      // What any Node scan pays before it looks at a byte: the limit of every count row.
      { ...floor('reads only', 'read'), comparesOutput: false },
    ),
    grepOperation('frequent-literal', 'grep -c frequent literal (INFO)', [], ['-c', 'INFO']),
    // -E for GNU grep: the pattern means the same in ERE and in JavaScript.
    grepOperation('regex', "grep -c regex 'ERROR .*timeout'", ['-E'], ['-c', 'ERROR .*timeout']),
    grepOperation(
      'ignore-case',
      'grep -c -i rare literal',
      [],
      ['-c', '-i', rareLiteral.toLowerCase()],
    ),
    grepOperation('context', 'grep -n -C 3 rare literal', [], ['-n', '-C', '3', rareLiteral]),
    // Most lines of the log printed: the output path, not the search, is what this one times.
    withCommands(
      grepOperation('invert', 'grep -v INFO (prints most lines)', [], ['-v', 'INFO']),
      floor('reads, indexOf, writes', 'print', 'INFO', 'invert'),
    ),
    withCommands(
      grepOperation('print', 'grep ERROR (prints every match)', [], ['ERROR']),
      floor('reads, indexOf, writes', 'print', 'ERROR'),
    ),
    {
      key: 'node-startup',
      name: 'node -e 0',
      commands: [
        startup({ tool: 'node -e 0', role: 'other', argv: [process.execPath, '-e', '0'] }),
      ],
    },
    {
      key: 'tail',
      name: 'tail -n 100',
      commands: [
        startup({ tool: 'GNU tail', role: 'gnu', argv: ['tail', '-n', '100', logPath] }),
        startup(spoolforge('tail', '-n', '100')),
      ],
    },
    {
      key: 'head',
      name: 'head -n 100',
      commands: [
        startup({ tool: 'GNU head', role: 'gnu', argv: ['head', '-n', '100', logPath] }),
        startup(spoolforge('head', '-n', '100')),
      ],
    },
    {
      key: 'lines',
      name: `lines ${first}-${last} (${where})`,
      commands: [
        { tool: 'GNU sed', role: 'gnu', argv: ['sed', '-n', `${first},${last}p`, logPath] },
        // What a sed user who knows the trick types: quit at the end of the range.
        {
          tool: 'GNU sed, q at end',
          role: 'other',
          argv: ['sed', '-n', `${first},${last}p;${last}q`, logPath],
        },
        {
          ...spoolforge('lines', String(first), String(last)),
          tool: `${cliTool}, first call`,
          indexCache: 'empty',
        },
        startup({
          ...spoolforge('lines', String(first), String(last)),
          tool: `${cliTool}, second call`,
          indexCache: 'filled',
        }),
      ],
    },
    {
      key: 'count',
      name: 'count lines',
      // Standard input, so wc prints the number alone, as spoolforge count does.
      commands: [
        { tool: 'GNU wc -l', role: 'gnu', argv: ['wc', '-l'], stdinPath: logPath },
        { ...spoolforge('count'), tool: `${cliTool}, empty cache`, indexCache: 'empty' },
      ],
    },
  ];
}
