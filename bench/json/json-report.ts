import { renderTable, type TableColumn } from '../shared/report.js';

/** Peak RSS goal of the JSON operations: flat memory whatever the document's size. */
export const jsonRssGoalMebibytes = 256;

/**
 * One line of the JSON benchmark's table: an operation on one format by one tool.
 *
 * @example
 * ```ts
 * const row: JsonResultRow = { operation: 'length', format: 'json', tool: 'jq', command: 'jq length x.json',
 *   seconds: [1.2], medianSeconds: 1.2, answer: '268751', check: 'ok' };
 * ```
 */
export interface JsonResultRow {
  operation: string;
  format: 'json' | 'jsonl';
  tool: string;
  command: string;
  /** Every run's time; empty when the tool failed. */
  seconds: number[];
  medianSeconds: number;
  /** API rows: the `length()` that opened the document first, in the same process. */
  medianOpenSeconds?: number;
  /** File size over the median, for operations that read the whole file. */
  mebibytesPerSecond?: number;
  /** Largest peak RSS over the runs. */
  peakRssMebibytes?: number;
  /** What the tool answered, or why it failed. */
  answer: string;
  /** `ok` when the answer is the generator's, `fails` when the tool could not run it. */
  check: 'ok' | 'MISMATCH' | 'fails';
  expected?: string;
}

const columns: TableColumn<JsonResultRow>[] = [
  { title: 'operation', align: 'left', value: (row) => row.operation },
  { title: 'format', align: 'left', value: (row) => row.format },
  { title: 'tool', align: 'left', value: (row) => row.tool },
  { title: 'median s', align: 'right', value: (row) => fixed(row.medianSeconds, 3) },
  { title: '+ open s', align: 'right', value: (row) => fixed(row.medianOpenSeconds, 3) },
  { title: 'MiB/s', align: 'right', value: (row) => fixed(row.mebibytesPerSecond, 1) },
  { title: 'peak RSS MiB', align: 'right', value: (row) => fixed(row.peakRssMebibytes, 1) },
  { title: `≤ ${jsonRssGoalMebibytes} MiB`, align: 'left', value: goalMark },
  {
    title: 'answer',
    align: 'left',
    value: (row) =>
      row.check === 'MISMATCH' ? `MISMATCH ${row.answer} (expected ${row.expected})` : row.answer,
  },
];

function fixed(value: number | undefined, digits: number): string {
  return value === undefined || !Number.isFinite(value) ? '-' : value.toFixed(digits);
}

function goalMark(row: JsonResultRow): string {
  if (row.peakRssMebibytes === undefined) return '-';
  return row.peakRssMebibytes <= jsonRssGoalMebibytes ? '✓' : '✗';
}

/** Throughput goal of shape(), opening included: a schema of a large file in seconds. */
export const shapeGoalMebibytesPerSecond = 100;

/**
 * Renders rows as an aligned plain-text table, with a blank line between operations.
 *
 * @example
 * ```ts
 * console.log(formatJsonTable(rows));
 * ```
 */
export function formatJsonTable(rows: readonly JsonResultRow[]): string {
  return renderTable(columns, rows);
}

/**
 * The problems worth shouting about: wrong answers, spoolforge failures (API and CLI), and spoolforge rows
 * over the RSS goal (other tools are there for comparison; the naive parse is expected to fail).
 *
 * @example
 * ```ts
 * for (const warning of findJsonWarnings(rows)) console.log(warning);
 * ```
 */
export function findJsonWarnings(rows: readonly JsonResultRow[]): string[] {
  const warnings: string[] = [];
  for (const row of rows) {
    const label = `${row.operation} / ${row.format} / ${row.tool}`;
    if (row.check === 'MISMATCH') {
      warnings.push(`MISMATCH: ${label}: ${row.answer}, expected ${row.expected}`);
    }
    if (row.tool !== 'spoolforge API' && row.tool !== 'spoolforge CLI') continue;
    if (row.check === 'fails') warnings.push(`FAILED: ${label}: ${row.answer}`);
    if ((row.peakRssMebibytes ?? 0) > jsonRssGoalMebibytes) {
      warnings.push(`RSS: ${label} peaked at ${row.peakRssMebibytes?.toFixed(1)} MiB`);
    }
  }
  return warnings;
}
