import { escapeXml } from '../shared/escape-xml.js';
import { grepRatioLimit } from './goals.js';
import { cliTool } from './operations.js';
import type { ResultRow } from './result-row.js';

/**
 * What the chart says above its bars.
 *
 * @example
 * ```ts
 * const options: RatioChartOptions = { title: 'spoolforge CLI vs ripgrep and GNU, 1G' };
 * ```
 */
export interface RatioChartOptions {
  title: string;
  /** A second, smaller line under the title (the machine, the date). */
  subtitle?: string;
}

interface ChartBar {
  label: string;
  ratio: number;
  color: string;
}

interface ChartGroup {
  label: string;
  bars: ChartBar[];
}

const width = 1000;
const labelWidth = 370;
const plotLeft = labelWidth + 10;
const plotRight = width - 60;
const headerHeight = 112;
const barHeight = 15;
const barGap = 3;
const groupGap = 16;
const footerHeight = 44;
const ripgrepColor = '#e07b24';
const gnuColor = '#3466b0';
const font = 'font-family="Helvetica, Arial, sans-serif"';

function formatRatio(ratio: number): string {
  if (ratio >= 10) return `${ratio.toFixed(0)}×`;
  if (ratio >= 0.1) return `${ratio.toFixed(2)}×`;
  return `${ratio.toPrecision(2)}×`;
}

/** The spoolforge CLI rows with a ratio, each a group of one bar: against the fastest peer. */
function chartGroups(rows: readonly ResultRow[]): ChartGroup[] {
  return rows
    .filter((row) => row.role === 'spoolforge' && row.tool.startsWith(cliTool))
    .map((row) => {
      const variant = row.tool.slice(cliTool.length).replace(/^, /, '');
      const bars: ChartBar[] = [];
      if (row.ratioVsFastest !== undefined && Number.isFinite(row.ratioVsFastest)) {
        const ripgrep = row.fastestPeer?.startsWith('ripgrep') === true;
        bars.push({
          label: `vs ${row.fastestPeer}`,
          ratio: row.ratioVsFastest,
          color: ripgrep ? ripgrepColor : gnuColor,
        });
      }
      return { label: variant ? `${row.operation}, ${variant}` : row.operation, bars };
    })
    .filter((group) => group.bars.length > 0);
}

/** Ticks at 1, 2 and 5 times each power of ten between the bounds. */
function ticks(low: number, high: number): number[] {
  const values: number[] = [];
  for (let exponent = Math.log10(low); exponent <= Math.log10(high); exponent++) {
    for (const step of [1, 2, 5]) {
      const value = step * 10 ** exponent;
      if (value >= low * 0.999 && value <= high * 1.001) values.push(Number(value.toPrecision(3)));
    }
  }
  return values;
}

/**
 * An SVG bar chart of the spoolforge CLI's time ratios: one bar per CLI row (operation, and
 * which call for `lines`/`count`), its median over the faster of ripgrep and the GNU tool (the
 * bar's colour says which), on a log scale around a reference line at 1× (left of it
 * spoolforge is faster, right slower) with the grep goal's 1.25× dashed, each bar labelled
 * with its ratio. Plain SVG text, no dependency; open it in any browser.
 *
 * @example
 * ```ts
 * await writeFile('bench/results/1G.svg', renderRatioChart(rows, { title: 'spoolforge, 1G' }));
 * ```
 */
export function renderRatioChart(rows: readonly ResultRow[], options: RatioChartOptions): string {
  const groups = chartGroups(rows);
  const ratios = groups.flatMap((group) => group.bars.map((bar) => bar.ratio));
  const low = 10 ** Math.floor(Math.log10(Math.min(0.1, ...ratios)));
  const high = 10 ** Math.ceil(Math.log10(Math.max(10, ...ratios)));
  const x = (ratio: number) =>
    plotLeft +
    ((Math.log10(ratio) - Math.log10(low)) / (Math.log10(high) - Math.log10(low))) *
      (plotRight - plotLeft);
  const groupHeight = (group: ChartGroup) =>
    group.bars.length * barHeight + (group.bars.length - 1) * barGap;
  const plotHeight = groups.reduce((sum, group) => sum + groupHeight(group) + groupGap, 0);
  const height = headerHeight + plotHeight + footerHeight;
  const plotBottom = headerHeight + plotHeight;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" ${font}>`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="20" y="30" font-size="19" font-weight="bold">${escapeXml(options.title)}</text>`,
  ];
  if (options.subtitle) {
    parts.push(
      `<text x="20" y="52" font-size="13" fill="#555">${escapeXml(options.subtitle)}</text>`,
    );
  }
  parts.push(
    `<rect x="${plotLeft}" y="66" width="14" height="12" fill="${ripgrepColor}"/>`,
    `<text x="${plotLeft + 20}" y="77" font-size="13">÷ ripgrep's time (the faster)</text>`,
    `<rect x="${plotLeft + 210}" y="66" width="14" height="12" fill="${gnuColor}"/>`,
    `<text x="${plotLeft + 230}" y="77" font-size="13">÷ the GNU tool's time (the faster or only peer)</text>`,
  );
  let stripeTop = headerHeight;
  groups.forEach((group, index) => {
    if (index % 2 === 0) {
      parts.push(
        `<rect x="10" y="${stripeTop - groupGap / 2}" width="${width - 20}" height="${groupHeight(group) + groupGap}" fill="#f3f5f8"/>`,
      );
    }
    stripeTop += groupHeight(group) + groupGap;
  });
  for (const tick of ticks(low, high)) {
    const position = x(tick).toFixed(1);
    const isPowerOfTen = Number.isInteger(Math.log10(tick));
    parts.push(
      `<line x1="${position}" y1="${headerHeight - 6}" x2="${position}" y2="${plotBottom}" stroke="${isPowerOfTen ? '#c8c8c8' : '#ececec'}"/>`,
      `<text x="${position}" y="${plotBottom + 16}" font-size="11" fill="#555" text-anchor="middle">${tick}×</text>`,
    );
  }
  let top = headerHeight;
  for (const group of groups) {
    const middle = top + groupHeight(group) / 2;
    parts.push(
      `<text x="${labelWidth}" y="${(middle + 4).toFixed(1)}" font-size="13" text-anchor="end">${escapeXml(group.label)}</text>`,
    );
    for (const bar of group.bars) {
      const start = x(Math.min(1, bar.ratio));
      const end = x(Math.max(1, bar.ratio));
      const slower = bar.ratio >= 1;
      const labelX = slower ? end + 4 : start - 4;
      parts.push(
        `<rect x="${start.toFixed(1)}" y="${top}" width="${Math.max(1, end - start).toFixed(1)}" height="${barHeight}" fill="${bar.color}"><title>${escapeXml(`${group.label} ${bar.label}: ${formatRatio(bar.ratio)}`)}</title></rect>`,
        `<text x="${labelX.toFixed(1)}" y="${top + barHeight - 3}" font-size="11" text-anchor="${slower ? 'start' : 'end'}">${formatRatio(bar.ratio)}</text>`,
      );
      top += barHeight + barGap;
    }
    top += groupGap - barGap;
  }
  const one = x(1).toFixed(1);
  const goal = x(grepRatioLimit).toFixed(1);
  parts.push(
    `<line x1="${goal}" y1="${headerHeight - 10}" x2="${goal}" y2="${plotBottom}" stroke="#a33" stroke-dasharray="4 3"/>`,
    `<text x="${goal}" y="${headerHeight - 13}" font-size="11" fill="#a33" text-anchor="middle">grep goal ${grepRatioLimit}×</text>`,
    `<line x1="${one}" y1="${headerHeight - 10}" x2="${one}" y2="${plotBottom}" stroke="#222" stroke-width="2"/>`,
    `<text x="${(x(1) - 8).toFixed(1)}" y="${plotBottom + 34}" font-size="12" text-anchor="end" fill="#2a7a2a">← spoolforge faster</text>`,
    `<text x="${(x(1) + 8).toFixed(1)}" y="${plotBottom + 34}" font-size="12" fill="#a33">spoolforge slower →</text>`,
    `<text x="${width - 20}" y="${plotBottom + 34}" font-size="11" fill="#555" text-anchor="end">median wall time ÷ fastest peer's, log scale</text>`,
    '</svg>',
  );
  return `${parts.join('\n')}\n`;
}
