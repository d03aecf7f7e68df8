import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { rareLiteral } from '../shared/generate-log.js';
import { median, type RunOptions, runCommand } from '../shared/measure.js';
import type { SpoolApiReport } from './children/spool-api.js';
import type { OperationKey } from './operations.js';
import type { OutputCheck, ResultRow } from './result-row.js';

const mebibyte = 1024 * 1024;
const gibibyte = 1024 * mebibyte;

/** The API's rows, keyed and named like the CLI operations they sit next to. */
const apiOperations = [
  ['spool', 'spool(createReadStream)'],
  ['rare-literal', 'grep -c rare literal'],
  ['tail', 'tail -n 100'],
] as const satisfies readonly (readonly [OperationKey, string])[];

/**
 * What the API measurement needs: the compiled child script, the built library, the log and
 * the GNU outputs its answers are checked against.
 *
 * @example
 * ```ts
 * const rows = await measureSpoolApi({ scriptPath, distIndexPath, logPath, lineCount,
 *   runs: 3, runOptions, expectedCount: '8\n', expectedTail: gnuTailBytes, workDirectory });
 * ```
 */
export interface SpoolApiOptions {
  scriptPath: string;
  distIndexPath: string;
  logPath: string;
  byteLength: number;
  lineCount: number;
  runs: number;
  runOptions: Omit<RunOptions, 'stdoutPath' | 'gnuTimePath'>;
  /** GNU `grep -c` output for the rare literal. */
  expectedCount: string | undefined;
  /** GNU `tail -n 100` output. */
  expectedTail: Buffer | undefined;
  workDirectory: string;
}

/**
 * Runs the API child `runs` times (each spools the whole log again, into a temp file) and
 * returns three rows: the spool itself with its throughput, then `grep` (count) and `tail(100)`
 * on the spooled artifact. Times are measured inside the child, so they exclude Node's
 * start-up; peak RSS is the child's own `process.resourceUsage().maxRSS`, cumulative.
 *
 * @example
 * ```ts
 * rows.push(...(await measureSpoolApi(options)));
 * ```
 */
export async function measureSpoolApi(options: SpoolApiOptions): Promise<ResultRow[]> {
  const reports: SpoolApiReport[] = [];
  const stdoutPath = join(options.workDirectory, 'spool-api.json');
  const argv = [
    process.execPath,
    options.scriptPath,
    options.distIndexPath,
    options.logPath,
    rareLiteral,
    '100',
  ];
  const command = `node ${argv.slice(1).join(' ')}`;
  for (let run = 0; run < options.runs; run++) {
    const result = await runCommand(
      { argv },
      { ...options.runOptions, gnuTimePath: undefined, stdoutPath },
    );
    if (result.exitCode !== 0) {
      const detail = `exit ${result.exitCode}: ${result.stderr.trim().split('\n').slice(-3).join(' | ')}`;
      return apiOperations.map(([key, operation]) => failedRow(key, operation, command, detail));
    }
    reports.push(JSON.parse(await readFile(stdoutPath, 'utf8')) as SpoolApiReport);
    process.stderr.write(
      `  spool API run ${run + 1}: ${reports.at(-1)?.spoolSeconds.toFixed(3)} s\n`,
    );
  }
  const first = reports[0] as SpoolApiReport;
  const peak = (phase: keyof SpoolApiReport['peakRssBytes']) =>
    Math.max(...reports.map((report) => report.peakRssBytes[phase])) / mebibyte;
  const row = (
    [operationKey, operation]: readonly [OperationKey, string],
    seconds: number[],
    peakRssMebibytes: number,
    check: { check: OutputCheck; checkDetail?: string },
    note: string,
  ): ResultRow => ({
    operationKey,
    operation,
    tool: 'spoolforge API',
    role: 'spoolforge',
    command,
    seconds,
    medianSeconds: median(seconds),
    peakRssMebibytes,
    ...check,
    note,
  });
  const spoolSeconds = reports.map((report) => report.spoolSeconds);
  const throughput = options.byteLength / gibibyte / median(spoolSeconds);
  const sizeMatches = first.bytes === options.byteLength && first.lines === options.lineCount;
  const expectedTail = options.expectedTail;
  const [spoolOperation, grepOperation, tailOperation] = apiOperations;
  return [
    row(
      spoolOperation,
      spoolSeconds,
      peak('spool'),
      sizeMatches
        ? { check: 'ok' }
        : {
            check: 'MISMATCH',
            checkDetail: `byteLength ${first.bytes} / lineCount ${first.lines}, expected ${options.byteLength} / ${options.lineCount}`,
          },
      `${throughput.toFixed(2)} GiB/s, in-process time`,
    ),
    row(
      grepOperation,
      reports.map((report) => report.grepSeconds),
      peak('grep'),
      compareText(`${first.matchCount}\n`, options.expectedCount),
      'artifact.grep(..., {count:true}) on the spool; in-process time',
    ),
    row(
      tailOperation,
      reports.map((report) => report.tailSeconds),
      peak('tail'),
      expectedTail === undefined
        ? { check: 'n/a' }
        : compareText(first.tailText, expectedTail.toString('utf8')),
      'artifact.tail(100) on the spool; in-process time',
    ),
  ];
}

function compareText(
  actual: string,
  expected: string | undefined,
): { check: OutputCheck; checkDetail?: string } {
  if (expected === undefined) return { check: 'n/a' };
  if (actual === expected) return { check: 'ok' };
  let index = 0;
  while (index < actual.length && actual[index] === expected[index]) index++;
  return {
    check: 'MISMATCH',
    checkDetail: `character ${index}: expected ${JSON.stringify(expected.slice(index, index + 60))}, got ${JSON.stringify(actual.slice(index, index + 60))}`,
  };
}

function failedRow(
  operationKey: OperationKey,
  operation: string,
  command: string,
  detail: string,
): ResultRow {
  return {
    operationKey,
    operation,
    tool: 'spoolforge API',
    role: 'spoolforge',
    command,
    seconds: [],
    medianSeconds: Number.NaN,
    check: 'FAILED',
    checkDetail: detail,
  };
}
