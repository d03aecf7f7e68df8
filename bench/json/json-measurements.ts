import { readFile } from 'node:fs/promises';
import { median, type RunOptions, runCommand } from '../shared/measure.js';
import type { JsonApiReport } from './children/json-api.js';
import type { JsonData } from './generate-json.js';
import { cliMeasurements, printedIdsAnswer, sliceStart } from './json-cli-measurements.js';
import type { JsonResultRow } from './json-report.js';

const mebibyte = 1024 * 1024;

/** The operations, as `children/json-api.ts` names them. */
export const jsonOperations = [
  'length',
  'slice',
  'shape',
  'shape-end-to-end',
  'filter-first-100',
  'filter-count',
  'pluck',
] as const;
export type JsonOperation = (typeof jsonOperations)[number];

/**
 * The operations as the table and the goals name them.
 *
 * @example
 * ```ts
 * operationLabels.shape; // 'shape()'
 * ```
 */
export const operationLabels: Record<JsonOperation, string> = {
  length: 'length()',
  slice: 'query $[90%:+10]',
  shape: 'shape()',
  'shape-end-to-end': 'shape() end to end',
  'filter-first-100': 'filter 5xx, limit 100',
  'filter-count': 'filter 5xx, count all',
  pluck: 'pluck $[*].id, count all',
};
/** Operations that read the whole file, so a throughput means something. */
const wholeFile = new Set<JsonOperation>([
  'length',
  'shape',
  'shape-end-to-end',
  'filter-count',
  'pluck',
]);

/**
 * One thing to time: an operation on one file by one tool, and the answer it must give.
 *
 * @example
 * ```ts
 * const measurement: JsonMeasurement = { operation: 'length', format: 'json', tool: 'jq',
 *   argv: ['jq', 'length', path], expected: '268751', fileBytes: 67_109_083 };
 * ```
 */
export interface JsonMeasurement {
  operation: JsonOperation;
  format: 'json' | 'jsonl';
  tool: 'spoolforge API' | 'spoolforge CLI' | 'jq' | 'jq -c' | 'naive JSON.parse';
  argv: string[];
  expected: string;
  fileBytes: number;
}

/**
 * Scripts and tools the measurements run: the compiled children and whether jq is installed.
 *
 * @example
 * ```ts
 * const tools: JsonTools = { distIndexPath, apiScriptPath, naiveScriptPath, jq: true };
 * ```
 */
export interface JsonTools {
  distIndexPath: string;
  /** The CLI's entry (`dist/cli/main.js`). */
  cliPath: string;
  apiScriptPath: string;
  naiveScriptPath: string;
  jq: boolean;
}

/** jq programs: the array is loaded whole (jq's usual use); JSONL is reduced record by record. */
const jqPrograms: Record<'json' | 'jsonl', Partial<Record<JsonOperation, string[]>>> = {
  json: {
    length: ['length'],
    'filter-count': ['[.[] | select(.status >= 500)] | length'],
    pluck: ['[.[].id] | length'],
  },
  jsonl: {
    length: ['-n', 'reduce inputs as $record (0; . + 1)'],
    'filter-count': ['-n', 'reduce (inputs | select(.status >= 500)) as $record (0; . + 1)'],
    pluck: ['-n', 'reduce (inputs | .id) as $id (0; . + 1)'],
  },
};

/**
 * Every measurement, grouped by format then operation: the API, then jq, then the naive parse.
 *
 * @example
 * ```ts
 * for (const measurement of buildJsonMeasurements(data, tools)) rows.push(await runJsonMeasurement(measurement, options));
 * ```
 */
export function buildJsonMeasurements(data: JsonData, tools: JsonTools): JsonMeasurement[] {
  const measurements: JsonMeasurement[] = [];
  for (const format of ['json', 'jsonl'] as const) {
    const path = format === 'json' ? data.jsonPath : data.jsonlPath;
    const fileBytes = format === 'json' ? data.jsonBytes : data.jsonlBytes;
    for (const operation of jsonOperations) {
      const base = { operation, format, fileBytes, expected: expectedAnswer(operation, data) };
      const node = process.execPath;
      measurements.push({
        ...base,
        tool: 'spoolforge API',
        argv: [node, tools.apiScriptPath, tools.distIndexPath, path, format, operation],
      });
      const program = jqPrograms[format][operation];
      if (tools.jq && program)
        measurements.push({ ...base, tool: 'jq', argv: ['jq', ...program, path] });
      if (format === 'json' && (operation === 'length' || operation === 'filter-count')) {
        measurements.push({
          ...base,
          tool: 'naive JSON.parse',
          argv: [node, tools.naiveScriptPath, path, operation],
        });
      }
    }
    for (const measurement of cliMeasurements(data, format, tools.cliPath, tools.jq)) {
      measurements.push({ ...measurement, expected: expectedAnswer(measurement.operation, data) });
    }
  }
  return measurements;
}

/** Record ids equal record indexes, so every answer follows from the generator's counts. */
function expectedAnswer(operation: JsonOperation, data: JsonData): string {
  const start = sliceStart(data);
  switch (operation) {
    case 'length':
      return String(data.recordCount);
    case 'slice':
      return `10 entries, ids ${start}-${start + 9}`;
    case 'shape':
    case 'shape-end-to-end':
      return `${data.recordCount} entries`;
    case 'filter-first-100':
      return `100 matches, last id ${data.hundredthServerErrorId}`;
    case 'filter-count':
      return String(data.serverErrorCount);
    case 'pluck':
      return String(data.recordCount);
  }
}

function apiAnswer(operation: JsonOperation, report: JsonApiReport): string {
  const { count, firstId, lastId, stopped } = report.answer;
  switch (operation) {
    case 'slice':
      return `${count} entries, ids ${firstId}-${lastId}`;
    case 'shape':
    case 'shape-end-to-end':
      return `${count} entries${stopped ? ` (stopped: ${stopped})` : ''}`;
    case 'filter-first-100':
      return `${count} matches, last id ${lastId}`;
    default:
      return String(count);
  }
}

/** Node's own error line (`Error: Cannot create a string longer than …`), else the last line. */
function failureMessage(stderr: string, exitCode: number | null): string {
  const errorLine = /^\w*Error: .*$/m.exec(stderr)?.[0];
  const lines = stderr.trim().split('\n');
  return errorLine ?? lines.at(-1) ?? `exit ${exitCode}`;
}

/**
 * Runs a measurement `runs` times, each in a fresh process so its peak RSS is its own, and
 * checks the first answer. Node children report their own time (no start-up or import); jq and
 * the CLI are timed from spawn to exit. A tool that fails is reported as failing, after one try.
 *
 * @example
 * ```ts
 * const row = await runJsonMeasurement(measurement, { runs: 3, runOptions });
 * ```
 */
export async function runJsonMeasurement(
  measurement: JsonMeasurement,
  options: { runs: number; runOptions: RunOptions },
): Promise<JsonResultRow> {
  const seconds: number[] = [];
  const openSeconds: number[] = [];
  const peaks: number[] = [];
  let answer: string | undefined;
  const label = `${operationLabels[measurement.operation]} / ${measurement.format} / ${measurement.tool}`;
  const row = {
    operation: operationLabels[measurement.operation],
    format: measurement.format,
    tool: measurement.tool,
    command: measurement.argv.join(' '),
    expected: measurement.expected,
  };
  for (let run = 0; run < options.runs; run++) {
    const result = await runCommand({ argv: measurement.argv }, options.runOptions);
    if (result.peakRssBytes !== undefined) peaks.push(result.peakRssBytes);
    if (result.exitCode !== 0) {
      const message = failureMessage(result.stderr, result.exitCode);
      process.stderr.write(`  ${label}: fails after ${result.seconds.toFixed(3)} s: ${message}\n`);
      return {
        ...row,
        seconds: [],
        medianSeconds: Number.NaN,
        ...(peaks.length > 0 ? { peakRssMebibytes: Math.max(...peaks) / mebibyte } : {}),
        answer: `fails after ${result.seconds.toFixed(1)} s: ${message}`,
        check: 'fails',
      };
    }
    const stdout = (await readFile(options.runOptions.stdoutPath, 'utf8')).trim();
    if (measurement.tool === 'jq') {
      seconds.push(result.seconds);
      answer ??= stdout;
    } else if (measurement.tool === 'spoolforge CLI' || measurement.tool === 'jq -c') {
      seconds.push(result.seconds);
      answer ??= printedIdsAnswer(measurement.operation, stdout);
    } else if (measurement.tool === 'naive JSON.parse') {
      const report = JSON.parse(stdout) as { seconds: number; count: number; peakRssBytes: number };
      seconds.push(report.seconds);
      if (result.peakRssBytes === undefined) peaks.push(report.peakRssBytes);
      answer ??= String(report.count);
    } else {
      const report = JSON.parse(stdout) as JsonApiReport;
      seconds.push(report.seconds);
      if (measurement.operation !== 'length' && measurement.operation !== 'shape-end-to-end')
        openSeconds.push(report.openSeconds);
      if (result.peakRssBytes === undefined) peaks.push(report.peakRssBytes);
      answer ??= apiAnswer(measurement.operation, report);
    }
    process.stderr.write(`  ${label} run ${run + 1}: ${seconds.at(-1)?.toFixed(3)} s\n`);
  }
  const medianSeconds = median(seconds);
  return {
    ...row,
    seconds,
    medianSeconds,
    ...(openSeconds.length > 0 ? { medianOpenSeconds: median(openSeconds) } : {}),
    ...(wholeFile.has(measurement.operation)
      ? { mebibytesPerSecond: measurement.fileBytes / mebibyte / medianSeconds }
      : {}),
    ...(peaks.length > 0 ? { peakRssMebibytes: Math.max(...peaks) / mebibyte } : {}),
    answer: answer ?? '',
    check: answer === measurement.expected ? 'ok' : 'MISMATCH',
  };
}
