import { type GoalResult, peakRssGoal, times, unmeasuredGoal } from '../shared/goal-result.js';
import { cliTool, floorTool, grepOperationKeys, type OperationKey } from './operations.js';
import { type ResultRow, rssWarningMebibytes } from './result-row.js';

/** Each grep mode at most this many times the faster of GNU grep and ripgrep. */
export const grepRatioLimit = 1.25;
/** The literal rows must beat both peers. */
const literalKeys = new Set<OperationKey>(['rare-literal', 'frequent-literal']);
/** A start-up row's median at most this much over `node -e 0`'s. */
const startupAllowanceSeconds = 0.03;

/** The goals' names of the grep rows. */
const grepLabels: Record<(typeof grepOperationKeys)[number], string> = {
  'rare-literal': '`grep -c` rare literal',
  'frequent-literal': '`grep -c` frequent literal (millions of hits)',
  regex: '`grep -c` regex with a required literal',
  'ignore-case': '`grep -c -i`',
  context: '`grep -n -C 3` rare literal',
  invert: '`grep -v`, most lines printed',
  print: '`grep`, every match printed',
};

/** The operation's row of that tool, when it ran cleanly. */
function cleanRow(rows: readonly ResultRow[], key: OperationKey, tool = cliTool) {
  return rows.find(
    (row) =>
      row.operationKey === key &&
      row.tool === tool &&
      row.check !== 'FAILED' &&
      row.check !== 'MISMATCH',
  );
}

const rowName = (row: ResultRow) => `${row.operation} / ${row.tool}`;
const seconds = (value: number) => `${value.toFixed(3)} s`;

function grepGoal(rows: readonly ResultRow[], key: (typeof grepOperationKeys)[number]) {
  const operation = grepLabels[key];
  const literal = literalKeys.has(key);
  const goal = literal
    ? '< 1× the faster of GNU grep and ripgrep (ahead of both)'
    : `≤ ${grepRatioLimit}× the faster of GNU grep and ripgrep`;
  const row = cleanRow(rows, key);
  const ratio = row?.ratioVsFastest;
  if (row === undefined || ratio === undefined) {
    return unmeasuredGoal(operation, goal, 'no clean CLI row or no peer row');
  }
  const peers = rows.filter(
    (peer) =>
      peer.operationKey === key &&
      (peer.role === 'gnu' || peer.role === 'ripgrep') &&
      peer.check !== 'FAILED',
  );
  // The row's own Node floor, else the read-only one every count row stands on.
  const floor = [key, 'rare-literal'].map((floorKey) =>
    rows.find((row) => row.operationKey === floorKey && row.tool.startsWith(floorTool)),
  );
  const floorRow = floor[0] ?? floor[1];
  const timings = [...peers, ...(floorRow ? [floorRow] : [])]
    .map((peer) => `${peer.tool} ${seconds(peer.medianSeconds)}`)
    .join(', ');
  // Without both peers the faster of the two is unknown: the ratio is shown, not judged.
  const judged =
    peers.some((peer) => peer.role === 'gnu') && peers.some((peer) => peer.role === 'ripgrep');
  return {
    operation,
    goal,
    measured: `${times(ratio)} ${row.fastestPeer} (${seconds(row.medianSeconds)}; ${timings}${judged ? '' : '; a peer is missing'})`,
    ratio,
    met: judged ? (literal ? ratio < 1 : ratio <= grepRatioLimit) : null,
  };
}

function startupGoal(rows: readonly ResultRow[], label: string, key: OperationKey, tool?: string) {
  const goal = `≤ node -e 0 + ${startupAllowanceSeconds * 1000} ms (medians)`;
  const row = cleanRow(rows, key, tool);
  const node = cleanRow(rows, 'node-startup', 'node -e 0');
  if (row === undefined || node === undefined) {
    return unmeasuredGoal(label, goal, 'no clean CLI or node -e 0 row');
  }
  const milliseconds = (value: number) => `${value >= 0 ? '+' : ''}${(value * 1000).toFixed(1)} ms`;
  const over = row.medianSeconds - node.medianSeconds;
  const overMinimum = Math.min(...row.seconds) - Math.min(...node.seconds);
  return {
    operation: label,
    goal,
    measured:
      `median ${milliseconds(over)} (${seconds(row.medianSeconds)} vs ${seconds(node.medianSeconds)}), ` +
      `min ${milliseconds(overMinimum)}, ${row.seconds.length} runs`,
    met: over <= startupAllowanceSeconds,
  };
}

/**
 * The log bench's goals, each with what this run measured: every grep mode against the faster
 * of GNU grep and ripgrep (medians, whole process; the literal rows must beat both), the
 * start-up rows' medians against `node -e 0`'s in the same run (at least `startupRuns`
 * runs each), and the peak RSS of every spoolforge CLI row and of every API row.
 *
 * @example
 * ```ts
 * console.log(formatGoals(evaluateGoals(rows)));
 * ```
 */
export function evaluateGoals(rows: readonly ResultRow[]): GoalResult[] {
  // Which lines were read: near line 30 M, or 75% of the way through a shorter log.
  const linesOperation = rows.find((row) => row.operationKey === 'lines')?.operation ?? 'lines';
  const spoolforgeRows = rows.filter((row) => row.role === 'spoolforge');
  return [
    ...grepOperationKeys.map((key) => grepGoal(rows, key)),
    startupGoal(rows, '`tail -n 100`, whole process', 'tail'),
    startupGoal(rows, '`head -n 100`, whole process', 'head'),
    startupGoal(
      rows,
      `\`${linesOperation}\`, second call, whole process`,
      'lines',
      `${cliTool}, second call`,
    ),
    peakRssGoal(
      'peak RSS, every spoolforge CLI row',
      spoolforgeRows.filter((row) => row.tool.startsWith(cliTool)),
      rssWarningMebibytes,
      rowName,
    ),
    peakRssGoal(
      'peak RSS, every spoolforge API row',
      spoolforgeRows.filter((row) => row.tool === 'spoolforge API'),
      rssWarningMebibytes,
      rowName,
    ),
  ];
}
