import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
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
  /** Largest peak RSS over the runs. */
  peakRssMebibytes?: number;
  check: OutputCheck;
  /** What differed, or why a run failed. */
  checkDetail?: string;
  /** Extra facts, such as a throughput. */
  note?: string;
}

/**
 * One column of a results table: its title, alignment, and how a row shows in it.
 *
 * @example
 * ```ts
 * const column: TableColumn<ResultRow> = { title: 'tool', align: 'left', value: (row) => row.tool };
 * ```
 */
export interface TableColumn<Row> {
  title: string;
  align: 'left' | 'right';
  value: (row: Row) => string;
}

const columns: TableColumn<ResultRow>[] = [
  { title: 'operation', align: 'left', value: (row) => row.operation },
  { title: 'tool', align: 'left', value: (row) => row.tool },
  { title: 'median s', align: 'right', value: (row) => row.medianSeconds.toFixed(3) },
  { title: 'vs GNU', align: 'right', value: (row) => ratio(row.ratioVsGnu) },
  { title: 'vs rg', align: 'right', value: (row) => ratio(row.ratioVsRipgrep) },
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
 * Any benchmark's rows as an aligned plain-text table under `columns`, with a rule under the
 * titles and a blank line wherever the operation changes.
 *
 * @example
 * ```ts
 * console.log(renderTable(jsonColumns, rows));
 * ```
 */
export function renderTable<Row extends { operation: string }>(
  tableColumns: readonly TableColumn<Row>[],
  rows: readonly Row[],
): string {
  const cells = rows.map((row) => tableColumns.map((column) => column.value(row)));
  const widths = tableColumns.map((column, index) =>
    Math.max(column.title.length, ...cells.map((line) => line[index]?.length ?? 0)),
  );
  const render = (values: readonly string[]) =>
    values
      .map((value, index) => {
        const width = widths[index] ?? 0;
        return tableColumns[index]?.align === 'right' ? value.padStart(width) : value.padEnd(width);
      })
      .join('  ')
      .trimEnd();
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  const lines = [render(tableColumns.map((column) => column.title)), rule];
  rows.forEach((row, index) => {
    if (index > 0 && rows[index - 1]?.operation !== row.operation) lines.push('');
    lines.push(render(cells[index] ?? []));
  });
  return lines.join('\n');
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

/**
 * Writes the results as pretty JSON, creating the directory.
 *
 * @example
 * ```ts
 * await writeResults('bench/results/1G-2025-01-01T10-00-00.json', { rows });
 * ```
 */
export async function writeResults(path: string, results: unknown): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${JSON.stringify(results, null, 2)}\n`);
}
