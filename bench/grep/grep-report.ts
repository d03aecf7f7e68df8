import { times } from '../shared/goal-result.js';
import type { TableColumn } from '../shared/report.js';
import { type CaseResult, gnuTool, spoolforgeTool, type ToolResult } from './run-grep-case.js';

/** A case slower than this many times its fastest peer is counted as over. */
export const ratioLimit = 1.25;

const seconds = (tool: ToolResult | undefined) =>
  tool === undefined || !Number.isFinite(tool.figure) ? '-' : `${tool.figure.toFixed(3)} s`;

const toolOf = (result: CaseResult, name: string) =>
  result.tools.find((tool) => tool.tool === name);

/** The case's words: its category, then the command in a code span (patterns hold `*`, `\`). */
function caseCell(result: CaseResult): string {
  const [category, command] = result.name.split(/: (?=grep )/);
  return command === undefined ? result.name : `${category}: \`${command}\``;
}

function ratioCell(result: CaseResult): string {
  if (result.ratio !== undefined) {
    return `${times(result.ratio)}${result.ratio > ratioLimit ? ' (over)' : ''}`;
  }
  const spoolforge = toolOf(result, spoolforgeTool);
  return spoolforge?.check === 'MISMATCH' || spoolforge?.check === 'FAILED'
    ? `**${spoolforge.check}**`
    : '-';
}

/**
 * The corpus table's columns: case, shape, what GNU grep found, spoolforge's time, the fastest
 * peer's (and which), the ratio, GNU grep's time, and every tool's peak RSS.
 *
 * @example
 * ```ts
 * console.log(renderMarkdownTable(grepColumns, results));
 * ```
 */
export const grepColumns: TableColumn<CaseResult>[] = [
  { title: 'case', align: 'left', value: caseCell },
  { title: 'shape', align: 'left', value: (result) => result.shape },
  { title: 'hits', align: 'right', value: (result) => result.hits },
  {
    title: 'spoolforge',
    align: 'right',
    value: (result) => seconds(toolOf(result, spoolforgeTool)),
  },
  {
    title: 'fastest peer',
    align: 'left',
    value: (result) =>
      result.fastestPeer === undefined
        ? '-'
        : `${seconds(toolOf(result, result.fastestPeer))} (${result.fastestPeer})`,
  },
  { title: 'ratio', align: 'right', value: ratioCell },
  { title: 'GNU grep', align: 'right', value: (result) => seconds(toolOf(result, gnuTool)) },
  {
    title: 'peak RSS MiB',
    align: 'left',
    value: (result) =>
      result.tools
        .map((tool) => `${tool.tool} ${tool.peakRssMebibytes?.toFixed(0) ?? 'n/a'}`)
        .join(', '),
  },
];

const geometricMean = (values: readonly number[]) =>
  Math.exp(values.reduce((sum, value) => sum + Math.log(value), 0) / values.length);

/**
 * The corpus in a few lines: the geometric mean of spoolforge's ratios to the fastest peer
 * (overall and per shape), the worst case, how many cases are over {@link ratioLimit} and how
 * many slower than GNU grep, and how many failed.
 *
 * @example
 * ```ts
 * for (const line of summarize(results)) console.log(`- ${line}`);
 * ```
 */
export function summarize(results: readonly CaseResult[]): string[] {
  const measured = results.filter((result) => result.ratio !== undefined);
  const ratioOf = (result: CaseResult) => result.ratio ?? Number.NaN;
  const lines: string[] = [];
  if (measured.length === 0) return ['no case measured: every spoolforge row failed'];
  const shapes = [...new Set(measured.map((result) => result.shape))];
  const perShape = shapes.map((shape) => {
    const ratios = measured.filter((result) => result.shape === shape).map(ratioOf);
    return `${shape} ${times(geometricMean(ratios))} (${ratios.length})`;
  });
  lines.push(
    `geometric mean of spoolforge / fastest peer: ${times(geometricMean(measured.map(ratioOf)))} over ${measured.length} cases (${perShape.join(', ')})`,
  );
  const worst = measured.reduce((top, result) => (ratioOf(result) > ratioOf(top) ? result : top));
  lines.push(
    `worst: ${times(ratioOf(worst))}, ${worst.name} on ${worst.shape}, against ${worst.fastestPeer}`,
  );
  const over = measured.filter((result) => ratioOf(result) > ratioLimit);
  lines.push(`over ${times(ratioLimit)} the fastest peer: ${over.length} of ${measured.length}`);
  const slowerThanGnu = measured.filter((result) => (result.ratioVsGnu ?? 0) > 1);
  lines.push(`slower than GNU grep: ${slowerThanGnu.length} of ${measured.length}`);
  lines.push(`failed or mismatched spoolforge rows: ${results.length - measured.length}`);
  return lines;
}

/**
 * The problems to shout about: a tool whose run failed or whose output differs from GNU
 * grep's (a peer that does is left out of the fastest peer).
 *
 * @example
 * ```ts
 * for (const warning of findGrepWarnings(results)) console.log(`!!! ${warning}`);
 * ```
 */
export function findGrepWarnings(results: readonly CaseResult[]): string[] {
  return results.flatMap((result) =>
    result.tools
      .filter((tool) => tool.check === 'MISMATCH' || tool.check === 'FAILED')
      .map(
        (tool) =>
          `${tool.check}: ${result.name} on ${result.shape}, ${tool.tool}: ${tool.detail ?? ''}`,
      ),
  );
}
