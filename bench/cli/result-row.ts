import { renderTable, type TableColumn } from '../shared/report.js';
import type { OperationKey, ToolRole } from './operations.js';

/** Peak RSS above this is flagged: the library promises flat memory whatever the input size. */
export const rssWarningMebibytes = 128;

/**
 * The outcome of comparing a tool's output with the GNU command's: `reference` for the GNU row
 * itself, `ok`, `MISMATCH`, `FAILED` (bad exit status) or `n/a` (nothing to compare).
 *
 * @example
 * ```ts
 * const check: OutputCheck = 'ok';
 * ```
 */
export type OutputCheck = 'reference' | 'ok' | 'MISMATCH' | 'FAILED' | 'n/a';

/**
 * One line of the results table.
 *
 * @example
 * ```ts
 * const row: ResultRow = { operationKey: 'tail', operation: 'tail -n 100', tool: 'GNU tail', role: 'gnu',
 *   command: 'tail -n 100 x', seconds: [0.01], medianSeconds: 0.01, check: 'reference' };
 * ```
 */
export interface ResultRow {
  /** Which operation, for the goals and the chart. */
  operationKey: OperationKey;
  operation: string;
  tool: string;
  /** Which rows the ratios are taken against: the operation's `gnu` and `ripgrep` rows. */
  role: ToolRole;
  command: string;
  /** Every run's wall time. */
  seconds: number[];
  medianSeconds: number;
  /** Median over the GNU command's median: 2 means twice as slow. */
  ratioVsGnu?: number;
  ratioVsRipgrep?: number;
  /** Median over the faster of the GNU and ripgrep medians: what the grep goals judge. */
  ratioVsFastest?: number;
  /** The tool that {@link ratioVsFastest} is taken against. */
  fastestPeer?: string;
  /** Largest peak RSS over the runs. */
  peakRssMebibytes?: number;
  check: OutputCheck;
  /** What differed, or why a run failed. */
  checkDetail?: string;
  /** Extra facts, such as a throughput. */
  note?: string;
}

const columns: TableColumn<ResultRow>[] = [
  { title: 'operation', align: 'left', value: (row) => row.operation },
  { title: 'tool', align: 'left', value: (row) => row.tool },
  { title: 'median s', align: 'right', value: (row) => seconds(row.medianSeconds) },
  { title: 'min s', align: 'right', value: (row) => seconds(Math.min(...row.seconds)) },
  { title: 'runs', align: 'right', value: (row) => String(row.seconds.length) },
  { title: 'vs GNU', align: 'right', value: (row) => ratio(row.ratioVsGnu) },
  { title: 'vs rg', align: 'right', value: (row) => ratio(row.ratioVsRipgrep) },
  { title: 'vs fastest', align: 'right', value: (row) => ratio(row.ratioVsFastest) },
  {
    title: 'peak RSS MiB',
    align: 'right',
    value: (row) =>
      row.peakRssMebibytes === undefined
        ? 'n/a'
        : `${row.peakRssMebibytes.toFixed(1)}${isOverRssBudget(row) ? ' !' : ''}`,
  },
  { title: 'output', align: 'left', value: (row) => row.check },
  { title: 'note', align: 'left', value: (row) => row.note ?? '' },
];

/** Only spoolforge rows have a memory budget; other tools are shown for comparison. */
function isOverRssBudget(row: ResultRow): boolean {
  return row.role === 'spoolforge' && (row.peakRssMebibytes ?? 0) > rssWarningMebibytes;
}

function seconds(value: number): string {
  return Number.isFinite(value) ? value.toFixed(3) : '-';
}

function ratio(value: number | undefined): string {
  return value === undefined || !Number.isFinite(value) ? '-' : `${value.toFixed(2)}x`;
}

/**
 * Renders rows as an aligned plain-text table, with a blank line between operations.
 *
 * @example
 * ```ts
 * console.log(formatTable(rows));
 * ```
 */
export function formatTable(rows: readonly ResultRow[]): string {
  return renderTable(columns, rows);
}

/**
 * The problems worth shouting about: output mismatches, failed runs and peak RSS over
 * {@link rssWarningMebibytes} for spoolforge rows.
 *
 * @example
 * ```ts
 * for (const warning of findWarnings(rows)) console.error(warning);
 * ```
 */
export function findWarnings(rows: readonly ResultRow[]): string[] {
  const warnings: string[] = [];
  for (const row of rows) {
    const label = `${row.operation} / ${row.tool}`;
    if (row.check === 'MISMATCH' || row.check === 'FAILED') {
      warnings.push(`${row.check}: ${label}: ${row.checkDetail ?? ''}`);
    }
    if (isOverRssBudget(row)) {
      warnings.push(
        `RSS: ${label} peaked at ${row.peakRssMebibytes?.toFixed(1)} MiB (> ${rssWarningMebibytes} MiB)`,
      );
    }
  }
  return warnings;
}
