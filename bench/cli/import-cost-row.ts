import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { median, type RunOptions, runCommand } from '../shared/measure.js';
import type { ImportCostReport } from './children/import-cost.js';
import type { ResultRow } from './result-row.js';

const mebibyte = 1024 * 1024;

/**
 * What the import-cost row needs: the compiled child script and the built library.
 *
 * @example
 * ```ts
 * const row = await measureImportCost({ scriptPath, distIndexPath, runs: 5, runOptions, workDirectory });
 * ```
 */
export interface ImportCostOptions {
  scriptPath: string;
  distIndexPath: string;
  runs: number;
  runOptions: Omit<RunOptions, 'stdoutPath' | 'gnuTimePath'>;
  workDirectory: string;
}

/**
 * `import('spoolforge')` from the built package, each run a fresh process: the minimum over
 * the runs of the import's time and of the process's peak RSS (the least disturbed run of a
 * short measurement), beside what a process importing only `node:fs` peaks at. No output to
 * check, so the check is `n/a`.
 *
 * @example
 * ```ts
 * rows.push(await measureImportCost(options));
 * ```
 */
export async function measureImportCost(options: ImportCostOptions): Promise<ResultRow> {
  const specifier = pathToFileURL(options.distIndexPath).href;
  const row: ResultRow = {
    operationKey: 'import',
    operation: "import('spoolforge')",
    tool: 'spoolforge API',
    role: 'spoolforge',
    command: `node ${options.scriptPath} ${specifier}`,
    seconds: [],
    medianSeconds: Number.NaN,
    check: 'n/a',
  };
  const library = await importReports(options, specifier);
  if (typeof library === 'string') return { ...row, check: 'FAILED', checkDetail: library };
  const node = await importReports(options, 'node:fs');
  const nodeRss = typeof node === 'string' ? Number.NaN : minimum(node, 'peakRssBytes');
  const seconds = library.map((report) => report.seconds);
  return {
    ...row,
    seconds,
    medianSeconds: median(seconds),
    peakRssMebibytes: minimum(library, 'peakRssBytes') / mebibyte,
    note:
      `min of ${library.length} runs: ${(Math.min(...seconds) * 1000).toFixed(1)} ms, ` +
      `${(minimum(library, 'cpuSeconds') * 1000).toFixed(1)} ms CPU, ` +
      `${(minimum(library, 'peakRssBytes') / mebibyte).toFixed(1)} MiB peak RSS ` +
      `(a process importing only node:fs: ${(nodeRss / mebibyte).toFixed(1)} MiB)`,
  };
}

function minimum(reports: ImportCostReport[], key: keyof ImportCostReport): number {
  return Math.min(...reports.map((report) => report[key]));
}

/** One report a run, or why a run failed. */
async function importReports(
  options: ImportCostOptions,
  specifier: string,
): Promise<ImportCostReport[] | string> {
  const stdoutPath = join(options.workDirectory, 'import-cost.json');
  const reports: ImportCostReport[] = [];
  for (let run = 0; run < options.runs; run++) {
    const result = await runCommand(
      { argv: [process.execPath, options.scriptPath, specifier] },
      { ...options.runOptions, gnuTimePath: undefined, stdoutPath },
    );
    if (result.exitCode !== 0) {
      return `exit ${result.exitCode}: ${result.stderr.trim().split('\n').slice(-3).join(' | ')}`;
    }
    reports.push(JSON.parse(await readFile(stdoutPath, 'utf8')) as ImportCostReport);
  }
  return reports;
}
