import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

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

/**
 * Rows as a Markdown table under `columns` (pipes in cells escaped), to paste into the README.
 *
 * @example
 * ```ts
 * await writeFile(markdownPath, `${renderMarkdownTable(columns, rows)}\n`);
 * ```
 */
export function renderMarkdownTable<Row>(
  tableColumns: readonly TableColumn<Row>[],
  rows: readonly Row[],
): string {
  const line = (cells: readonly string[]) =>
    `| ${cells.map((cell) => cell.replaceAll('|', '\\|')).join(' | ')} |`;
  return [
    line(tableColumns.map((column) => column.title)),
    `|${tableColumns.map((column) => (column.align === 'right' ? '---:' : '---')).join('|')}|`,
    ...rows.map((row) => line(tableColumns.map((column) => column.value(row)))),
  ].join('\n');
}
