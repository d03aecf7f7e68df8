import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { median, type RunOptions, runCommand } from '../shared/measure.js';
import type { EstimateTokensReport } from './children/estimate-tokens-api.js';
import type { ResultRow } from './result-row.js';

const mebibyte = 1024 * 1024;

/**
 * What the `estimateTokens` row needs: the compiled child script, the built library and the log.
 *
 * @example
 * ```ts
 * const row = await measureEstimateTokens({ scriptPath, distIndexPath, logPath, byteLength,
 *   runs: 3, runOptions, workDirectory });
 * ```
 */
export interface EstimateTokensOptions {
  scriptPath: string;
  distIndexPath: string;
  logPath: string;
  byteLength: number;
  runs: number;
  runOptions: Omit<RunOptions, 'stdoutPath' | 'gnuTimePath'>;
  workDirectory: string;
}

/**
 * Runs the `estimateTokens` child `runs` times, each a fresh process (so each pays the
 * tokenizer's load, as a first call does), and returns one row: the in-process time, the
 * child's own peak RSS, and the count and method in the note. No tool gives a reference count
 * and an exact one would take minutes (about 5 MiB/s), so the output check is `n/a`;
 * `npm run bench:tokens` measures the sample's error.
 *
 * @example
 * ```ts
 * rows.push(await measureEstimateTokens(options));
 * ```
 */
export async function measureEstimateTokens(options: EstimateTokensOptions): Promise<ResultRow> {
  const argv = [process.execPath, options.scriptPath, options.distIndexPath, options.logPath];
  const stdoutPath = join(options.workDirectory, 'estimate-tokens.json');
  const row: ResultRow = {
    operationKey: 'estimate-tokens',
    operation: 'estimateTokens',
    tool: 'spoolforge API',
    role: 'spoolforge',
    command: `node ${argv.slice(1).join(' ')}`,
    seconds: [],
    medianSeconds: Number.NaN,
    check: 'n/a',
  };
  const reports: EstimateTokensReport[] = [];
  for (let run = 0; run < options.runs; run++) {
    const result = await runCommand(
      { argv },
      { ...options.runOptions, gnuTimePath: undefined, stdoutPath },
    );
    if (result.exitCode !== 0) {
      const detail = result.stderr.trim().split('\n').slice(-3).join(' | ');
      return { ...row, check: 'FAILED', checkDetail: `exit ${result.exitCode}: ${detail}` };
    }
    reports.push(JSON.parse(await readFile(stdoutPath, 'utf8')) as EstimateTokensReport);
    process.stderr.write(
      `  estimateTokens run ${run + 1}: ${reports.at(-1)?.seconds.toFixed(3)} s\n`,
    );
  }
  const first = reports[0] as EstimateTokensReport;
  const seconds = reports.map((report) => report.seconds);
  return {
    ...row,
    seconds,
    medianSeconds: median(seconds),
    peakRssMebibytes: Math.max(...reports.map((report) => report.peakRssBytes)) / mebibyte,
    note:
      `${first.tokens} tokens, ${first.method} (o200k_base, file read in place, tokenizer load ` +
      `included; in-process time); ${(options.byteLength / first.tokens).toFixed(2)} bytes a token`,
  };
}
