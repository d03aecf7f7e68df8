/**
 * The grep corpus benchmark: `npm run bench:grep -- [--size 4G] [--runs 3] [--stat median|min]
 * [--shape multi-service|access|all] [--only REGEX] [--results PATH] [--ignore-load]
 * [--output-dir DIR] [--fresh]`. Times `spoolforge grep` on a corpus of patterns, on two
 * generated log shapes, against GNU grep, `rg` and `rg --no-mmap`, checks every output against
 * GNU grep's byte for byte, and prints and writes a Markdown table with each case's ratio to the
 * fastest peer and a summary. `--fresh` writes each log again before its cases, so the page
 * cache holds it as just written (see `rewriteLog`): the state in which `rg`'s mmap is fastest.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  checkQuietMachine,
  firstLine,
  loadAverage,
  parseBenchOptions,
  privateDistCopy,
  runFacts,
} from '../shared/bench-options.js';
import { repositoryRoot, resultsDirectory } from '../shared/bench-paths.js';
import { ensureBuilt } from '../shared/ensure-built.js';
import { ensureLog, type LogShape, multiServiceLog } from '../shared/generate-log.js';
import { times } from '../shared/goal-result.js';
import { findGnuTime, runCommand, toolEnvironment } from '../shared/measure.js';
import { renderMarkdownTable, writeResults } from '../shared/report.js';
import { rewriteLog } from '../shared/rewrite-log.js';
import { accessLog } from './generate-access-log.js';
import { caseName, grepCorpus, type ShapeName } from './grep-corpus.js';
import { findGrepWarnings, grepColumns, ratioLimit, summarize } from './grep-report.js';
import { type CaseResult, runGrepCase } from './run-grep-case.js';

const shapes: Record<ShapeName, LogShape> = { 'multi-service': multiServiceLog, access: accessLog };

function readOptions() {
  const options = parseBenchOptions('4G', {
    shape: { type: 'string', default: 'all' },
    only: { type: 'string' },
    stat: { type: 'string', default: 'median' },
    'ignore-load': { type: 'boolean', default: false },
    'output-dir': { type: 'string' },
    fresh: { type: 'boolean', default: false },
  });
  const { shape, only, stat } = options.values;
  if (shape !== 'all' && !(String(shape) in shapes)) {
    throw new Error(`--shape: expected ${Object.keys(shapes).join(', ')} or all, got '${shape}'`);
  }
  if (stat !== 'median' && stat !== 'min') throw new Error(`--stat: expected median or min`);
  const filter = only === undefined ? undefined : new RegExp(String(only));
  const cases = grepCorpus.filter(
    (grepCase) =>
      (shape === 'all' || grepCase.shape === shape) &&
      (filter === undefined || filter.test(caseName(grepCase))),
  );
  if (cases.length === 0) throw new Error('no case left after --shape and --only');
  return {
    ...options,
    cases,
    statistic: stat as 'median' | 'min',
    ignoreLoad: options.values['ignore-load'] === true,
    outputDir: options.values['output-dir'] as string | undefined,
    fresh: options.values.fresh === true,
  };
}

async function main(): Promise<void> {
  const options = readOptions();
  // Before anything of the bench's own runs: its generation and tools load the machine too.
  const loadWarning = checkQuietMachine({ override: options.ignoreLoad });
  if (loadWarning) console.error(`\n!!! ${loadWarning}\n`);
  const loadBefore = loadAverage();
  const started = performance.now();
  ensureBuilt(repositoryRoot);
  const gnuTimePath = findGnuTime();
  const ripgrepVersion = firstLine(['rg', '--version']);
  const ripgrep = ripgrepVersion !== 'not installed';
  if (!ripgrep) console.error('\n!!! rg not installed: GNU grep is the only peer\n');
  const workDirectory = await privateDistCopy('spoolforge-grep-bench-');
  // The printing cases write GBs: on a tmpfs, the disk's writeback of earlier runs' output
  // no longer decides later runs' times.
  const outputDirectory = options.outputDir
    ? await mkdtemp(join(options.outputDir, 'spoolforge-grep-out-'))
    : workDirectory;
  const results: CaseResult[] = [];
  const logs: Record<string, string> = {};
  try {
    const environment = toolEnvironment({ SPOOLFORGE_CACHE_DIR: join(workDirectory, 'cache') });
    const scratch = { environment, gnuTimePath, rssPath: join(workDirectory, 'rss.txt') };
    for (const shapeName of new Set(options.cases.map((grepCase) => grepCase.shape))) {
      const logPath = await ensureLog({ size: options.size, shape: shapes[shapeName] });
      logs[shapeName] = logPath;
      console.error(`${shapeName}: ${logPath}`);
      if (options.fresh) rewriteLog(logPath);
      // Read once before anything is timed, so every tool finds it in the page cache.
      await runCommand(
        { argv: ['wc', '-l'], stdinPath: logPath },
        { ...scratch, stdoutPath: join(workDirectory, 'lines.txt') },
      );
      for (const grepCase of options.cases.filter((each) => each.shape === shapeName)) {
        results.push(
          await runGrepCase(grepCase, results.length, {
            runs: options.runs,
            statistic: options.statistic,
            logPath,
            cliPath: join(workDirectory, 'dist', 'cli', 'main.js'),
            ripgrep,
            workDirectory,
            outputDirectory,
            environment,
            gnuTimePath,
          }),
        );
      }
    }
  } finally {
    await rm(workDirectory, { recursive: true, force: true });
    await rm(outputDirectory, { recursive: true, force: true });
  }
  const elapsedSeconds = (performance.now() - started) / 1000;
  const table = renderMarkdownTable(grepColumns, results);
  const summary = summarize(results);
  const notes = [
    `logs of ${options.sizeLabel} (${options.size} bytes): ${Object.values(logs).join(', ')}; page cache warm${options.fresh ? ', each log written again just before its cases (--fresh)' : ''}`,
    `${options.statistic} of ${options.runs} runs, wall time spawn to exit; tools interleaved, their order rotated each round`,
    `ratio: spoolforge over the fastest of GNU grep (-a, -F for fixed strings, else -E; LC_ALL=C), rg and rg --no-mmap that printed GNU grep's bytes; over ${times(ratioLimit)} is marked`,
    `versions: node ${process.version}; ${firstLine(['grep', '--version'])}; ${ripgrep ? ripgrepVersion : 'rg not installed'}`,
    gnuTimePath ? `peak RSS from ${gnuTimePath} -f %M` : 'peak RSS n/a: GNU time not found',
    `output written under ${options.outputDir ?? tmpdir()}: the first run's to a new file, compared; later runs' over a copy of GNU grep's output, in place`,
    `worker threads: SPOOLFORGE_THREADS=${process.env.SPOOLFORGE_THREADS ?? 'unset (default)'}`,
    `load average (1, 5, 15 min) before: ${loadBefore}, after: ${loadAverage()} on ${cpus().length} CPUs${loadWarning ? ' (--ignore-load: a busy machine)' : ''}`,
    `took ${elapsedSeconds.toFixed(0)} s`,
  ];
  const failures = findGrepWarnings(results);
  const warnings = [...(loadWarning ? [loadWarning] : []), ...failures];
  console.log(`\nspoolforge grep corpus, ${options.sizeLabel}, ${new Date().toISOString()}\n`);
  console.log(`${table}\n`);
  console.log(summary.map((line) => `- ${line}`).join('\n'));
  console.log(`\n${notes.map((note) => `- ${note}`).join('\n')}`);
  if (warnings.length > 0) {
    console.log(
      `\n!!! ${warnings.length} problem(s):\n${warnings.map((w) => `!!! ${w}`).join('\n')}`,
    );
  }
  const date = new Date().toISOString().slice(0, 19).replaceAll(':', '-');
  const resultsPath =
    options.resultsPath ?? join(resultsDirectory, `grep-${options.sizeLabel}-${date}.json`);
  await writeResults(resultsPath, {
    size: options.sizeLabel,
    byteLength: options.size,
    runs: options.runs,
    statistic: options.statistic,
    ...runFacts(),
    notes,
    summary,
    warnings,
    results,
  });
  const markdownPath = resultsPath.replace(/\.json$/, '.md');
  await writeFile(
    markdownPath,
    `${table}\n\n${[...summary, ...notes].map((line) => `- ${line}`).join('\n')}\n`,
  );
  console.log(`\nresults: ${resultsPath}\ntable: ${markdownPath}`);
  // A failed or mismatched row fails the run; a busy machine was asked for.
  if (failures.length > 0) process.exitCode = 1;
}

try {
  await main();
} catch (error) {
  console.error(`bench:grep: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
