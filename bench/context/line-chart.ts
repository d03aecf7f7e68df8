import { escapeXml } from '../shared/escape-xml.js';

/**
 * One line of a panel: its legend label, colour, and points `[x, y]`.
 *
 * @example
 * ```ts
 * const series: LineSeries = { label: 'heap (MiB)', color: '#3466b0', points: [[0, 12], [10, 12.5]] };
 * ```
 */
export interface LineSeries {
  label: string;
  color: string;
  points: [number, number][];
  /** Drawn dashed (a limit rather than a measurement). */
  dashed?: boolean;
}

/**
 * A panel of a {@link lineChartSvg}: series over the shared x axis, on a y axis from 0.
 *
 * @example
 * ```ts
 * const panel: LinePanel = { yLabel: 'tokens per turn', series: [tokens, budget] };
 * ```
 */
export interface LinePanel {
  yLabel: string;
  series: LineSeries[];
}

const width = 1000;
const panelHeight = 260;
const left = 90;
const right = width - 30;
const top = 70;
const gap = 70;
const font = 'font-family="Helvetica, Arial, sans-serif"';

const tick = (value: number) =>
  value >= 1_000_000
    ? `${(value / 1_000_000).toFixed(1)}M`
    : value >= 10_000
      ? `${Math.round(value / 1_000)}k`
      : String(Math.round(value));

/**
 * Stacked line charts sharing an x axis, as an SVG document: the bench's plots of a quantity
 * against time (turn number).
 *
 * @example
 * ```ts
 * await writeFile('context.svg', lineChartSvg({ title: 'Context bench', xLabel: 'message', panels }));
 * ```
 */
export function lineChartSvg(options: {
  title: string;
  subtitle?: string;
  xLabel: string;
  panels: LinePanel[];
}): string {
  const all = options.panels.flatMap((panel) => panel.series.flatMap((series) => series.points));
  const xMax = Math.max(1, ...all.map(([x]) => x));
  const height = top + options.panels.length * (panelHeight + gap) + 10;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="${left}" y="28" font-size="18" font-weight="bold" ${font}>${escapeXml(options.title)}</text>`,
  ];
  if (options.subtitle) {
    parts.push(
      `<text x="${left}" y="48" font-size="12" fill="#555" ${font}>${escapeXml(options.subtitle)}</text>`,
    );
  }
  options.panels.forEach((panel, index) => {
    const panelTop = top + index * (panelHeight + gap);
    const bottom = panelTop + panelHeight;
    const yMax =
      Math.max(1, ...panel.series.flatMap((series) => series.points.map(([, y]) => y))) * 1.1;
    const x = (value: number) => left + ((right - left) * value) / xMax;
    const y = (value: number) => bottom - (panelHeight * value) / yMax;
    parts.push(
      `<line x1="${left}" y1="${bottom}" x2="${right}" y2="${bottom}" stroke="#333"/>`,
      `<line x1="${left}" y1="${panelTop}" x2="${left}" y2="${bottom}" stroke="#333"/>`,
      `<text x="${left}" y="${panelTop - 8}" font-size="13" ${font}>${escapeXml(panel.yLabel)}</text>`,
    );
    for (let step = 0; step <= 4; step++) {
      const value = (yMax * step) / 4;
      parts.push(
        `<line x1="${left}" y1="${y(value)}" x2="${right}" y2="${y(value)}" stroke="#eee"/>`,
        `<text x="${left - 6}" y="${y(value) + 4}" font-size="11" text-anchor="end" ${font}>${tick(value)}</text>`,
        `<text x="${x((xMax * step) / 4)}" y="${bottom + 16}" font-size="11" text-anchor="middle" ${font}>${tick((xMax * step) / 4)}</text>`,
      );
    }
    panel.series.forEach((series, position) => {
      const points = series.points.map(([px, py]) => `${x(px).toFixed(1)},${y(py).toFixed(1)}`);
      const dash = series.dashed ? ' stroke-dasharray="6 4"' : '';
      parts.push(
        `<polyline fill="none" stroke="${series.color}" stroke-width="1.5"${dash} points="${points.join(' ')}"/>`,
        `<rect x="${right - 260}" y="${panelTop + 36 + position * 18}" width="12" height="3" fill="${series.color}"/>`,
        `<text x="${right - 242}" y="${panelTop + 41 + position * 18}" font-size="12" ${font}>${escapeXml(series.label)}</text>`,
      );
    });
    parts.push(
      `<text x="${(left + right) / 2}" y="${bottom + 34}" font-size="12" text-anchor="middle" ${font}>${escapeXml(options.xLabel)}</text>`,
    );
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
