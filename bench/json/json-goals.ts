import { type GoalResult, peakRssGoal, times, unmeasuredGoal } from '../shared/goal-result.js';
import { type JsonOperation, operationLabels } from './json-measurements.js';
import {
  type JsonResultRow,
  jsonRssGoalMebibytes,
  shapeGoalMebibytesPerSecond,
} from './json-report.js';

/** Each query at most this many times jq's time on the same file. */
const jqRatioLimit = 1;
/** The operations judged against jq, in table order. */
const versusJq: readonly JsonOperation[] = [
  'length',
  'slice',
  'filter-first-100',
  'filter-count',
  'pluck',
];

function cleanRow(
  rows: readonly JsonResultRow[],
  operation: JsonOperation,
  format: 'json' | 'jsonl',
  tool: string,
) {
  return rows.find(
    (row) =>
      row.operation === operationLabels[operation] &&
      row.format === format &&
      row.tool === tool &&
      row.check === 'ok',
  );
}

/**
 * An operation against jq: the CLI against `jq -c` printing the same ids where the CLI has a
 * row (both timed spawn to exit), else the API (its in-process time) against jq's count.
 */
function jqGoal(
  rows: readonly JsonResultRow[],
  operation: JsonOperation,
  format: 'json' | 'jsonl',
): GoalResult {
  const cli = rows.some(
    (row) => row.operation === operationLabels[operation] && row.tool === 'spoolforge CLI',
  );
  const [tool, peerTool] = cli ? ['spoolforge CLI', 'jq -c'] : ['spoolforge API', 'jq'];
  const label = `${operationLabels[operation]}, ${format}, ${tool}`;
  const goal = `≤ ${jqRatioLimit}× ${peerTool}`;
  const row = cleanRow(rows, operation, format, tool);
  const peer = cleanRow(rows, operation, format, peerTool);
  if (row === undefined || peer === undefined) {
    return unmeasuredGoal(label, goal, `no clean ${tool} or ${peerTool} row`);
  }
  const ratio = row.medianSeconds / peer.medianSeconds;
  return {
    operation: label,
    goal,
    measured: `${times(ratio)} ${peerTool} (${row.medianSeconds.toFixed(3)} s vs ${peer.medianSeconds.toFixed(3)} s)`,
    ratio,
    met: ratio <= jqRatioLimit,
  };
}

function shapeGoal(rows: readonly JsonResultRow[], format: 'json' | 'jsonl'): GoalResult {
  const label = `${operationLabels['shape-end-to-end']}, ${format}, spoolforge API`;
  const goal = `≥ ${shapeGoalMebibytesPerSecond} MiB/s (the file over shape()'s time, opening included)`;
  const throughput = cleanRow(
    rows,
    'shape-end-to-end',
    format,
    'spoolforge API',
  )?.mebibytesPerSecond;
  if (throughput === undefined) return unmeasuredGoal(label, goal, 'no clean shape() row');
  return {
    operation: label,
    goal,
    measured: `${throughput.toFixed(1)} MiB/s`,
    met: throughput >= shapeGoalMebibytesPerSecond,
  };
}

/**
 * The JSON bench's goals: `length()`, the slice, the filters and the pluck at most
 * 1× jq's time on each file (medians), `shape()` at least 100 MiB/s, and every spoolforge row's
 * peak RSS within {@link jsonRssGoalMebibytes} MiB.
 *
 * @example
 * ```ts
 * console.log(formatGoals(evaluateJsonGoals(rows)));
 * ```
 */
export function evaluateJsonGoals(rows: readonly JsonResultRow[]): GoalResult[] {
  return [
    ...(['json', 'jsonl'] as const).flatMap((format) => [
      ...versusJq.map((operation) => jqGoal(rows, operation, format)),
      shapeGoal(rows, format),
    ]),
    peakRssGoal(
      'peak RSS, every spoolforge row',
      rows.filter((row) => row.tool.startsWith('spoolforge')),
      jsonRssGoalMebibytes,
      (row) => `${row.operation} / ${row.format} / ${row.tool}`,
    ),
  ];
}
