import { renderTable, type TableColumn } from './report.js';

/**
 * One goal of a benchmark and how a run did against it, in the shape every bench writes into
 * its results JSON under `goals` (and `npm run bench:all` reads back): `ratio` is the measured
 * time over the peer's the goal names (the faster of GNU and ripgrep for grep), when the goal
 * is a ratio; `met` is `null` when a row it needs is missing or failed.
 *
 * @example
 * ```ts
 * const goal: GoalResult = { operation: '`grep -c -i`', goal: '≤ 1.25× the faster of GNU grep and ripgrep',
 *   measured: '1.10× ripgrep (0.066 s; GNU grep 0.080 s)', ratio: 1.1, met: true };
 * ```
 */
export interface GoalResult {
  /** The operation, as the goals table words it. */
  operation: string;
  /** The goal, as the table words it. */
  goal: string;
  /** What this run measured, with the rows it comes from. */
  measured: string;
  ratio?: number;
  met: boolean | null;
}

/**
 * A goal that could not be judged: a row it needs is missing or failed.
 *
 * @example
 * ```ts
 * goals.push(unmeasuredGoal('`grep -v`', '≤ 1.25× fastest', 'no clean CLI row'));
 * ```
 */
export function unmeasuredGoal(operation: string, goal: string, why: string): GoalResult {
  return { operation, goal, measured: why, met: null };
}

/**
 * A ratio as the tables print it: `1.25×`.
 *
 * @example
 * ```ts
 * times(1.249); // '1.25×'
 * ```
 */
export const times = (value: number) => `${value.toFixed(2)}×`;

/**
 * `met`, `NOT met`, or `n/a` when the goal could not be judged.
 *
 * @example
 * ```ts
 * verdict(goal.met); // 'NOT met'
 * ```
 */
export function verdict(met: boolean | null): string {
  return met === null ? 'n/a' : met ? 'met' : 'NOT met';
}

const goalColumns: TableColumn<GoalResult>[] = [
  { title: 'goal', align: 'left', value: (goal) => goal.operation },
  { title: 'target', align: 'left', value: (goal) => goal.goal },
  { title: 'measured', align: 'left', value: (goal) => goal.measured },
  {
    title: 'vs fastest peer',
    align: 'right',
    value: (goal) => (goal.ratio === undefined ? '-' : times(goal.ratio)),
  },
  { title: 'result', align: 'left', value: (goal) => verdict(goal.met) },
];

/**
 * Renders goals as an aligned plain-text table, one line a goal, with a column before them
 * when `first` is given (`npm run bench:all` names each goal's bench there).
 *
 * @example
 * ```ts
 * console.log(formatGoals(goals));
 * ```
 */
export function formatGoals<Goal extends GoalResult>(
  goals: readonly Goal[],
  first?: TableColumn<Goal>,
): string {
  const columns: TableColumn<Goal>[] = [...(first ? [first] : []), ...goalColumns];
  // renderTable separates groups by `operation`; every goal is its own group of one line.
  return renderTable(columns, goals).replaceAll('\n\n', '\n');
}

/**
 * Every row's peak RSS within `limitMebibytes`: met when the largest is; measured names the
 * largest row (`name` words it) and how many rows went over.
 *
 * @example
 * ```ts
 * goals.push(peakRssGoal('peak RSS, every CLI row', cliRows, 128, (row) => row.tool));
 * ```
 */
export function peakRssGoal<Row extends { peakRssMebibytes?: number | undefined }>(
  operation: string,
  rows: readonly Row[],
  limitMebibytes: number,
  name: (row: Row) => string,
): GoalResult {
  const goal = `≤ ${limitMebibytes} MiB`;
  const measured = rows.filter((row) => row.peakRssMebibytes !== undefined);
  const peak = (row: Row) => row.peakRssMebibytes ?? 0;
  const largest = measured.reduce<Row | undefined>(
    (top, row) => (top === undefined || peak(row) > peak(top) ? row : top),
    undefined,
  );
  if (largest === undefined) return unmeasuredGoal(operation, goal, 'no peak RSS measured');
  const over = measured.filter((row) => peak(row) > limitMebibytes).length;
  return {
    operation,
    goal,
    measured: `largest ${peak(largest).toFixed(1)} MiB (${name(largest)}); ${over} of ${measured.length} rows over`,
    met: peak(largest) <= limitMebibytes,
  };
}
