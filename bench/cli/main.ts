/**
 * The benchmark: `npm run bench -- [--size 1G] [--runs 3] [--results PATH]`. Times spoolforge
 * (CLI and API) against GNU grep/tail/head/sed/wc and ripgrep on a generated multi-service log,
 * checks that every tool prints the same bytes, prints its goals and the results table, and
 * writes JSON and an SVG chart of the CLI's ratios against the fastest peer to
 * `bench/results/`.
 */
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { firstLine, loadAverage, parseBenchOptions } from '../shared/bench-options.js';
import { repositoryRoot, resultsDirectory } from '../shared/bench-paths.js';
import { distFingerprint, ensureBuilt } from '../shared/ensure-built.js';
import { ensureLog } from '../shared/generate-log.js';
import { formatGoals } from '../shared/goal-result.js';
import { findGnuTime, runCommand, toolEnvironment } from '../shared/measure.js';
import { compileNodeScript } from '../shared/node-script.js';
import { writeResults } from '../shared/report.js';
import { measureEstimateTokens } from './estimate-tokens-row.js';
import { evaluateGoals } from './goals.js';
import { measureImportCost } from './import-cost-row.js';
import { buildOperations, startupRuns } from './operations.js';
import { renderRatioChart } from './ratio-chart.js';
import { findWarnings, formatTable, type ResultRow } from './result-row.js';
import { addRatios, runOperation } from './run-operation.js';
import { measureSpoolApi } from './spool-api-rows.js';

const childrenDirectory = fileURLToPath(new URL('./children/', import.meta.url));
const cliPath = join(repositoryRoot, 'dist', 'cli', 'main.js');
const distIndexPath = join(repositoryRoot, 'dist', 'index.js');
const mebibyte = 1024 * 1024;

function gitDescription(): string {
  const inRepository = { cwd: repositoryRoot, encoding: 'utf8' } as const;
  const head = spawnSync('git', ['rev-parse', '--short', 'HEAD'], inRepository);
  const dirty = spawnSync('git', ['status', '--porcelain', 'src'], inRepository);
  return `${head.stdout.trim()}${dirty.stdout.trim() ? ' (src modified)' : ''}`;
}

async function main(): Promise<void> {
  const options = parseBenchOptions();
  // Taken before the run: a commit made while it runs does not describe what was measured.
  const commit = gitDescription();
  ensureBuilt(repositoryRoot);
  const builtBefore = distFingerprint(repositoryRoot);
  const loadBefore = loadAverage();
  const gnuTimePath = findGnuTime();
  const ripgrep = firstLine(['rg', '--version']) !== 'not installed';
  const generationStart = performance.now();
  const logPath = await ensureLog({ size: options.size });
  const generationSeconds = (performance.now() - generationStart) / 1000;
  const byteLength = statSync(logPath).size;
  console.error(
    `log: ${logPath} (${(byteLength / mebibyte).toFixed(0)} MiB, ready in ${generationSeconds.toFixed(1)} s)`,
  );
  const workDirectory = await mkdtemp(join(tmpdir(), 'spoolforge-bench-'));
  try {
    // The CLI's line index cache lives in this run's temp directory, never in the user's
    // ~/.cache; rows that time a first or second call get a directory of their own per run.
    const environment = toolEnvironment({
      SPOOLFORGE_CACHE_DIR: join(workDirectory, 'index-cache-shared'),
    });
    const runOptions = { environment, rssPath: join(workDirectory, 'rss.txt') };
    /** A child script of `children/`, compiled to run under plain node. */
    const childScript = (name: string) =>
      compileNodeScript(join(childrenDirectory, name), workDirectory);
    // Counting the lines also pulls the log into the page cache before anything is timed.
    const countPath = join(workDirectory, 'count.out');
    await runCommand(
      { argv: ['wc', '-l'], stdinPath: logPath },
      { ...runOptions, gnuTimePath, stdoutPath: countPath },
    );
    const lineCount = Number((await readFile(countPath, 'utf8')).trim());
    const naiveScriptPath = await childScript('naive-count.ts');
    const floorScriptPath = await childScript('node-floor.ts');
    const operations = buildOperations({
      logPath,
      cliPath,
      naiveScriptPath,
      floorScriptPath,
      lineCount,
      ripgrep,
    });
    const rows: ResultRow[] = [];
    for (const [index, operation] of operations.entries()) {
      rows.push(
        ...(await runOperation(operation, index, {
          runs: options.runs,
          workDirectory,
          environment,
          gnuTimePath,
        })),
      );
    }
    const gnuOutput = (operationIndex: number) =>
      readFile(join(workDirectory, `${operationIndex}-0.out`)).catch(() => undefined);
    const apiRows = await measureSpoolApi({
      scriptPath: await childScript('spool-api.ts'),
      distIndexPath,
      logPath,
      byteLength,
      lineCount,
      runs: options.runs,
      runOptions,
      expectedCount: (await gnuOutput(0))?.toString('utf8'),
      expectedTail: await gnuOutput(operations.findIndex((operation) => operation.key === 'tail')),
      workDirectory,
    });
    for (const apiRow of apiRows) {
      // Next to the CLI rows of the same operation, or at the end when it has none.
      const last = rows.findLastIndex((row) => row.operation === apiRow.operation);
      rows.splice(last === -1 ? rows.length : last + 1, 0, apiRow);
    }
    rows.push(
      await measureEstimateTokens({
        scriptPath: await childScript('estimate-tokens-api.ts'),
        distIndexPath,
        logPath,
        byteLength,
        runs: options.runs,
        runOptions,
        workDirectory,
      }),
    );
    rows.push(
      await measureImportCost({
        scriptPath: await childScript('import-cost.ts'),
        distIndexPath,
        runs: Math.max(options.runs, 5),
        runOptions,
        workDirectory,
      }),
    );
    addRatios(rows);
    const notes = [
      `log: ${(byteLength / mebibyte).toFixed(0)} MiB, ${lineCount} lines, page cache warm; median of ${options.runs} runs (wall time, including process start)`,
      'GNU tools and ripgrep run with LC_ALL=C; GNU grep with -a (and -E for the regex); spoolforge patterns are JavaScript regexes',
      gnuTimePath
        ? `peak RSS from ${gnuTimePath} -f %M`
        : 'peak RSS n/a: GNU time not found (apt-get install time)',
      ripgrep
        ? `ripgrep: ${firstLine(['rg', '--version'])}`
        : 'ripgrep rows skipped: rg not installed (apt-get install ripgrep)',
      "import('spoolforge'): the built package imported in a fresh process, time inside the child, minimum over at least 5 runs",
      'spoolforge API rows: time measured inside the child (no Node start-up), RSS from process.resourceUsage().maxRSS, cumulative over spool, grep, tail; estimateTokens runs in a child of its own on the file read in place, sampled past 1 MiB',
      "lines: 'first call' runs with a new, empty index cache directory (SPOOLFORGE_CACHE_DIR), 'second call' with the one the latest first call filled (it runs more often); count runs with an empty one",
      `worker threads: SPOOLFORGE_THREADS=${process.env.SPOOLFORGE_THREADS ?? 'unset (default)'}`,
      'ripgrep memory-maps the file: its RSS counts the page-cache pages it mapped, not heap',
      "'vs GNU' / 'vs rg': this row's median over that tool's median; 'vs fastest': over the faster of the two (GNU alone where ripgrep has no row); above 1 is slower",
      `start-up rows (node -e 0, tail, head, lines second call): at least ${startupRuns} runs whatever --runs says; their goals compare medians, 'min s' is the fastest run`,
      'printing rows (-n -C 3, -v, every match) write their output to a file, never /dev/null (GNU grep stops at the first match there)',
      `load average (1, 5, 15 min) before: ${loadBefore}, after: ${loadAverage()} on ${cpus().length} CPUs`,
    ];
    console.log(
      `\nspoolforge benchmark, ${options.sizeLabel} (${byteLength} bytes), ${new Date().toISOString()}\n`,
    );
    const goals = evaluateGoals(rows);
    console.log(`${formatGoals(goals)}\n`);
    console.log(formatTable(rows));
    console.log(`\n${notes.map((note) => `- ${note}`).join('\n')}`);
    const warnings = findWarnings(rows);
    if (distFingerprint(repositoryRoot) !== builtBefore) {
      warnings.unshift('dist/ was rebuilt while the benchmark ran: rows mix builds; run it again');
    }
    if (warnings.length > 0)
      console.log(
        `\n!!! ${warnings.length} problem(s):\n${warnings.map((line) => `!!! ${line}`).join('\n')}`,
      );
    const date = new Date().toISOString().slice(0, 19).replaceAll(':', '-');
    const resultsPath =
      options.resultsPath ?? join(resultsDirectory, `${options.sizeLabel}-${date}.json`);
    const chartPath = `${resultsPath.replace(/\.json$/, '')}.svg`;
    await writeResults(resultsPath, {
      size: options.sizeLabel,
      byteLength,
      lineCount,
      runs: options.runs,
      date: new Date().toISOString(),
      commit,
      machine: {
        cpu: cpus()[0]?.model,
        cpus: cpus().length,
        memoryBytes: totalmem(),
        platform: process.platform,
      },
      versions: {
        node: process.version,
        grep: firstLine(['grep', '--version']),
        ripgrep: firstLine(['rg', '--version']),
        sed: firstLine(['sed', '--version']),
        coreutils: firstLine(['tail', '--version']),
      },
      notes,
      warnings,
      goals,
      rows,
    });
    const chart = renderRatioChart(rows, {
      title: `spoolforge CLI time vs the fastest of ripgrep and GNU tools, ${options.sizeLabel} log`,
      subtitle: `${lineCount} lines, median of ${options.runs} runs, ${cpus().length} CPUs, ${commit}, ${new Date().toISOString().slice(0, 16)}`,
    });
    await writeFile(chartPath, chart);
    console.log(`\nresults: ${resultsPath}\nchart: ${chartPath}`);
  } finally {
    await rm(workDirectory, { recursive: true, force: true });
  }
}

try {
  await main();
} catch (error) {
  console.error(`bench: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
