import { renderTable, type TableColumn } from '../shared/report.js';
import { cliTool, type OperationKey } from './operations.js';
import { type ResultRow, rssWarningMebibytes } from './result-row.js';

const gibibyte = 1024 * 1024 * 1024;

/**
 * One goal of the benchmark and how this run did against it: `met` is `undefined` when a row it
 * needs is missing or failed (ripgrep not installed, a mismatch).
 *
 * @example
 * ```ts
 * const goal: GoalResult = { operation: '`grep -c -i`', goal: '≤ 2.5× ripgrep',
 *   measured: '1.80× rg', met: true };
 * ```
 */
export interface GoalResult {
  /** The operation, as the goals table words it. */
  operation: string;
  /** The goal, as the table words it. */
  goal: string;
  /** What this run measured, with the rows it comes from. */
  measured: string;
  met: boolean | undefined;
}

/** A measured value and whether it meets its goal; `undefined` when it could not be measured. */
type Evaluation = { measured: string; met: boolean | undefined };

const unmeasured = (why: string): Evaluation => ({ measured: why, met: undefined });

const times = (value: number) => `${value.toFixed(2)}×`;

/** The operation's spoolforge CLI row with that tool name, when it ran cleanly. */
function cliRow(rows: readonly ResultRow[], key: OperationKey, tool = cliTool) {
  return rows.find(
    (row) =>
      row.operationKey === key &&
      row.tool === tool &&
      row.check !== 'FAILED' &&
      row.check !== 'MISMATCH',
  );
}

function ripgrepRatio(rows: readonly ResultRow[], key: OperationKey, limit: number): Evaluation {
  const ratio = cliRow(rows, key)?.ratioVsRipgrep;
  if (ratio === undefined) return unmeasured('no clean CLI and ripgrep rows');
  return { measured: `${times(ratio)} rg`, met: ratio <= limit };
}

function wholeProcessSeconds(
  rows: readonly ResultRow[],
  parts: readonly (readonly [string, OperationKey, string?])[],
  limitSeconds: number,
): Evaluation {
  const found = parts.map(([label, key, tool]) => [label, cliRow(rows, key, tool)] as const);
  if (found.some(([, row]) => row === undefined)) return unmeasured('no clean CLI row');
  return {
    measured: found.map(([label, row]) => `${label}${row?.medianSeconds.toFixed(3)} s`).join(', '),
    met: found.every(([, row]) => (row?.medianSeconds ?? Number.POSITIVE_INFINITY) <= limitSeconds),
  };
}

function rareLiteral(rows: readonly ResultRow[]): Evaluation {
  const row = cliRow(rows, 'rare-literal');
  const { ratioVsRipgrep, ratioVsGnu } = row ?? {};
  if (ratioVsRipgrep === undefined || ratioVsGnu === undefined) {
    return unmeasured('no clean CLI, ripgrep and GNU rows');
  }
  const versusGnu =
    ratioVsGnu <= 1
      ? `${times(1 / ratioVsGnu)} faster than GNU grep`
      : `${times(ratioVsGnu)} GNU grep's time (slower)`;
  // What ripgrep itself manages against GNU on this machine says whether 3× is reachable.
  const ripgrep = cliRow(rows, 'rare-literal', 'ripgrep')?.ratioVsGnu;
  const reference = ripgrep ? ` (ripgrep: ${times(1 / ripgrep)} faster than GNU grep)` : '';
  return {
    measured: `${times(ratioVsRipgrep)} rg, ${versusGnu}${reference}`,
    met: ratioVsRipgrep <= 1.5 && 1 / ratioVsGnu >= 3,
  };
}

function indexBuild(rows: readonly ResultRow[], byteLength: number): Evaluation {
  const ratio = cliRow(rows, 'count', `${cliTool}, empty cache`)?.ratioVsGnu;
  if (ratio === undefined) return unmeasured('no clean count row');
  const size = `${(byteLength / gibibyte).toFixed(2)} GiB`;
  return { measured: `${times(ratio)} wc -l (count, empty cache, ${size})`, met: ratio <= 3 };
}

function spoolThroughput(rows: readonly ResultRow[], byteLength: number): Evaluation {
  const row = cliRow(rows, 'spool', 'spoolforge API');
  if (row === undefined || !Number.isFinite(row.medianSeconds)) return unmeasured('no spool row');
  const throughput = byteLength / gibibyte / row.medianSeconds;
  return { measured: `${throughput.toFixed(2)} GiB/s`, met: throughput >= 1 };
}

function peakRss(rows: readonly ResultRow[]): Evaluation {
  const measured = rows.filter(
    (row) => row.role === 'spoolforge' && row.peakRssMebibytes !== undefined,
  );
  const largest = measured.reduce<ResultRow | undefined>(
    (top, row) => ((row.peakRssMebibytes ?? 0) > (top?.peakRssMebibytes ?? -1) ? row : top),
    undefined,
  );
  if (largest?.peakRssMebibytes === undefined) return unmeasured('no RSS measured');
  const over = measured.filter((row) => (row.peakRssMebibytes ?? 0) > rssWarningMebibytes).length;
  return {
    measured:
      `${largest.peakRssMebibytes.toFixed(1)} MiB (${largest.operation} / ${largest.tool}); ` +
      `${over} of ${measured.length} rows over`,
    met: largest.peakRssMebibytes <= rssWarningMebibytes,
  };
}

/**
 * The performance goals table (operations and goals as they were set), each with what
 * this run measured. Time goals use the spoolforge CLI rows (whole process, medians); the spool
 * goal uses the API's in-process spool time; the RSS goal the largest peak of any spoolforge row.
 *
 * @example
 * ```ts
 * console.log(formatGoals(evaluateGoals(rows, byteLength)));
 * ```
 */
export function evaluateGoals(rows: readonly ResultRow[], byteLength: number): GoalResult[] {
  // Which lines were read: near line 30 M, or 75% of the way through a shorter log.
  const linesOperation = rows.find((row) => row.operationKey === 'lines')?.operation ?? 'lines';
  const goals: [string, string, Evaluation][] = [
    [
      '`grep -c` rare literal',
      "≤ 1.5× ripgrep's time, ≥ 3× faster than GNU grep",
      rareLiteral(rows),
    ],
    [
      '`grep -c` frequent literal (millions of hits)',
      '≤ 1.5× ripgrep',
      ripgrepRatio(rows, 'frequent-literal', 1.5),
    ],
    ['`grep -c` regex with a required literal', '≤ 2× ripgrep', ripgrepRatio(rows, 'regex', 2)],
    ['`grep -c -i`', '≤ 2.5× ripgrep', ripgrepRatio(rows, 'ignore-case', 2.5)],
    ['`grep -n -C 3` rare literal', '≤ 1.5× ripgrep', ripgrepRatio(rows, 'context', 1.5)],
    [
      'tail / head -n 100 (whole process)',
      '≤ 0.1 s',
      wholeProcessSeconds(
        rows,
        [
          ['tail ', 'tail'],
          ['head ', 'head'],
        ],
        0.1,
      ),
    ],
    [
      'lines near line 30 M, second call',
      '≤ 0.1 s',
      wholeProcessSeconds(rows, [[`${linesOperation}: `, 'lines', `${cliTool}, second call`]], 0.1),
    ],
    [
      'build the line index of an unindexed 4 GiB file',
      '≤ 3× `wc -l`',
      indexBuild(rows, byteLength),
    ],
    ['spool a streamed 4 GiB source with index', '≥ 1 GiB/s', spoolThroughput(rows, byteLength)],
    ['peak RSS, any of the above', '≤ 128 MiB', peakRss(rows)],
  ];
  return goals.map(([operation, goal, { measured, met }]) => ({ operation, goal, measured, met }));
}

const goalColumns: TableColumn<GoalResult>[] = [
  { title: 'goal', align: 'left', value: (goal) => goal.operation },
  { title: 'target', align: 'left', value: (goal) => goal.goal },
  { title: 'measured', align: 'left', value: (goal) => goal.measured },
  {
    title: 'result',
    align: 'left',
    value: (goal) => (goal.met === undefined ? 'n/a' : goal.met ? 'met' : 'NOT met'),
  },
];

/**
 * Renders the goals as an aligned plain-text table, one line a goal.
 *
 * @example
 * ```ts
 * console.log(formatGoals(evaluateGoals(rows, byteLength)));
 * ```
 */
export function formatGoals(goals: readonly GoalResult[]): string {
  // renderTable separates groups by `operation`; every goal is its own group of one line.
  return renderTable(goalColumns, goals).replaceAll('\n\n', '\n');
}
