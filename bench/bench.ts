/**
 * The benchmark: `npm run bench -- [--size 1G] [--runs 3]`. Times spoolforge (CLI and API)
 * against GNU grep/tail/head/sed/wc and ripgrep on a generated multi-service log, checks that
 * every tool prints the same bytes, prints a table and writes JSON to `bench/results/`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { cpus, tmpdir, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ensureLog } from './generate-log.js';
import { compareFiles, findGnuTime, median, type RunResult, runCommand } from './measure.js';
import { compileNodeScript } from './node-script.js';
import { buildOperations, type Operation, shellCommand } from './operations.js';
import { findWarnings, formatTable, type ResultRow, writeResults } from './report.js';
import { measureSpoolApi } from './spool-api-rows.js';

const benchDirectory = import.meta.dirname;
const root = resolve(benchDirectory, '..');
const cliPath = join(root, 'dist', 'cli', 'main.js');
const distIndexPath = join(root, 'dist', 'index.js');
const mebibyte = 1024 * 1024;

/** `256M`, `1G`, `4G`, `1.5G`, `1024K`, or plain bytes; binary units. */
function parseSize(text: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*([KMGT]?)(?:i?B)?$/i.exec(text.trim());
  if (!match) throw new Error(`--size: expected something like 256M, 1G or 4G, got '${text}'`);
  const exponent = ' KMGT'.indexOf((match[2] ?? '').toUpperCase() || ' ');
  return Math.round(Number(match[1]) * 1024 ** exponent);
}

function parseOptions() {
  const { values } = parseArgs({
    options: { size: { type: 'string', default: '1G' }, runs: { type: 'string', default: '3' } },
  });
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs: expected a whole number ≥ 1`);
  return { sizeLabel: values.size, size: parseSize(values.size), runs };
}

/** Builds dist/ when the CLI is missing; warns when src/ changed after the last build. */
function ensureBuilt(): void {
  if (!existsSync(cliPath)) {
    console.error('dist/cli/main.js is missing: running npm run build');
    const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('npm run build failed');
    return;
  }
  const built = statSync(cliPath).mtimeMs;
  const stale = spawnSync('find', [join(root, 'src'), '-newermt', `@${built / 1000}`, '-type', 'f'], {
    encoding: 'utf8',
  }).stdout?.trim();
  if (stale) console.error(`warning: src/ changed after dist/ was built; run npm run build\n${stale}`);
}

function firstLine(argv: string[]): string {
  const result = spawnSync(argv[0] as string, argv.slice(1), { encoding: 'utf8' });
  return result.status === 0 ? (result.stdout.split('\n')[0] ?? '').trim() : 'not installed';
}

function gitDescription(): string {
  const head = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' });
  const dirty = spawnSync('git', ['status', '--porcelain', 'src'], { cwd: root, encoding: 'utf8' });
  return `${head.stdout.trim()}${dirty.stdout.trim() ? ' (src modified)' : ''}`;
}

/** Times every command of an operation, round-robin so drift hits all tools alike. */
async function measureOperation(
  operation: Operation,
  index: number,
  context: { runs: number; workDirectory: string; environment: NodeJS.ProcessEnv; gnuTimePath: string | undefined },
): Promise<ResultRow[]> {
  const outputs = operation.commands.map((_, tool) => join(context.workDirectory, `${index}-${tool}.out`));
  const results: RunResult[][] = operation.commands.map(() => []);
  for (let run = 0; run < context.runs; run++) {
    for (const [tool, command] of operation.commands.entries()) {
      const result = await runCommand(command, {
        environment: context.environment,
        gnuTimePath: context.gnuTimePath,
        // Only the first run's output is kept for the comparison.
        stdoutPath: run === 0 ? (outputs[tool] as string) : join(context.workDirectory, 'scratch.out'),
        rssPath: join(context.workDirectory, 'rss.txt'),
      });
      results[tool]?.push(result);
      process.stderr.write(`  ${operation.name} / ${command.tool}: ${result.seconds.toFixed(3)} s\n`);
    }
  }
  const referenceIndex = operation.commands.findIndex((command) => command.role === 'gnu');
  const rows: ResultRow[] = [];
  for (const [tool, command] of operation.commands.entries()) {
    const runs = results[tool] ?? [];
    const failed = runs.find((result) => result.exitCode === null || result.exitCode > 1);
    const rssValues = runs.flatMap((result) => (result.peakRssBytes === undefined ? [] : [result.peakRssBytes]));
    const row: ResultRow = {
      operation: operation.name,
      tool: command.tool,
      command: shellCommand(command),
      seconds: runs.map((result) => result.seconds),
      medianSeconds: median(runs.map((result) => result.seconds)),
      ...(rssValues.length > 0 ? { peakRssMebibytes: Math.max(...rssValues) / mebibyte } : {}),
      check: tool === referenceIndex ? 'reference' : 'n/a',
    };
    if (failed) {
      row.check = 'FAILED';
      row.checkDetail = `exit ${failed.exitCode}: ${failed.stderr.trim().split('\n')[0] ?? ''}`;
    } else if (tool !== referenceIndex && referenceIndex >= 0) {
      const difference = await compareFiles(outputs[referenceIndex] as string, outputs[tool] as string);
      const exitDiffers = runs[0]?.exitCode !== results[referenceIndex]?.[0]?.exitCode;
      row.check = difference || exitDiffers ? 'MISMATCH' : 'ok';
      if (difference) row.checkDetail = difference;
      else if (exitDiffers) row.checkDetail = `exit status ${runs[0]?.exitCode}, GNU ${results[referenceIndex]?.[0]?.exitCode}`;
    }
    rows.push(row);
  }
  return rows;
}

/** Fills the ratio columns from each operation's GNU and ripgrep rows. */
function addRatios(rows: ResultRow[]): void {
  const reference = (operation: string, tools: (tool: string) => boolean) =>
    rows.find((row) => row.operation === operation && tools(row.tool) && row.check !== 'FAILED')?.medianSeconds;
  for (const row of rows) {
    const gnu = reference(row.operation, (tool) => tool.startsWith('GNU') && !tool.includes(','));
    const ripgrep = reference(row.operation, (tool) => tool === 'ripgrep');
    if (gnu !== undefined) row.ratioVsGnu = row.medianSeconds / gnu;
    if (ripgrep !== undefined) row.ratioVsRipgrep = row.medianSeconds / ripgrep;
  }
}

async function main(): Promise<void> {
  const options = parseOptions();
  ensureBuilt();
  const gnuTimePath = findGnuTime();
  const ripgrep = firstLine(['rg', '--version']) !== 'not installed';
  const generationStart = performance.now();
  const logPath = await ensureLog({ size: options.size });
  const generationSeconds = (performance.now() - generationStart) / 1000;
  const byteLength = statSync(logPath).size;
  console.error(`log: ${logPath} (${(byteLength / mebibyte).toFixed(0)} MiB, ready in ${generationSeconds.toFixed(1)} s)`);
  const workDirectory = await mkdtemp(join(tmpdir(), 'spoolforge-bench-'));
  try {
    // LC_ALL=C puts GNU tools on their fastest byte paths; no ripgrep config file interferes.
    const environment: NodeJS.ProcessEnv = { ...process.env, LC_ALL: 'C' };
    delete environment.RIPGREP_CONFIG_PATH;
    const runOptions = { environment, rssPath: join(workDirectory, 'rss.txt') };
    // Counting the lines also pulls the log into the page cache before anything is timed.
    const countPath = join(workDirectory, 'count.out');
    await runCommand({ argv: ['wc', '-l'], stdinPath: logPath }, { ...runOptions, gnuTimePath, stdoutPath: countPath });
    const lineCount = Number((await readFile(countPath, 'utf8')).trim());
    const naiveScriptPath = await compileNodeScript(join(benchDirectory, 'children', 'naive-count.ts'), workDirectory);
    const operations = buildOperations({ logPath, cliPath, naiveScriptPath, lineCount, ripgrep });
    const rows: ResultRow[] = [];
    for (const [index, operation] of operations.entries()) {
      rows.push(...(await measureOperation(operation, index, { runs: options.runs, workDirectory, environment, gnuTimePath })));
    }
    const gnuOutput = (operationIndex: number) => readFile(join(workDirectory, `${operationIndex}-0.out`)).catch(() => undefined);
    const apiRows = await measureSpoolApi({
      scriptPath: await compileNodeScript(join(benchDirectory, 'children', 'spool-api.ts'), workDirectory),
      distIndexPath,
      logPath,
      byteLength,
      lineCount,
      runs: options.runs,
      runOptions,
      expectedCount: (await gnuOutput(0))?.toString('utf8'),
      expectedTail: await gnuOutput(operations.findIndex((operation) => operation.name === 'tail -n 100')),
      workDirectory,
    });
    for (const apiRow of apiRows) {
      // Next to the CLI rows of the same operation, or at the end when it has none.
      const last = rows.findLastIndex((row) => row.operation === apiRow.operation);
      rows.splice(last === -1 ? rows.length : last + 1, 0, apiRow);
    }
    addRatios(rows);
    const notes = [
      `log: ${(byteLength / mebibyte).toFixed(0)} MiB, ${lineCount} lines, page cache warm; median of ${options.runs} runs (wall time, including process start)`,
      'GNU tools and ripgrep run with LC_ALL=C; GNU grep with -a (and -E for the regex); spoolforge patterns are JavaScript regexes',
      gnuTimePath ? `peak RSS from ${gnuTimePath} -f %M` : 'peak RSS n/a: GNU time not found (apt-get install time)',
      ripgrep ? `ripgrep: ${firstLine(['rg', '--version'])}` : 'ripgrep rows skipped: rg not installed (apt-get install ripgrep)',
      'spoolforge API rows: time measured inside the child (no Node start-up), RSS from process.resourceUsage().maxRSS, cumulative over spool, grep, tail',
      "'vs GNU' / 'vs rg': this row's median over that tool's median; above 1 is slower",
    ];
    console.log(`\nspoolforge benchmark, ${options.sizeLabel} (${byteLength} bytes), ${new Date().toISOString()}\n`);
    console.log(formatTable(rows));
    console.log(`\n${notes.map((note) => `- ${note}`).join('\n')}`);
    const warnings = findWarnings(rows);
    if (warnings.length > 0) console.log(`\n!!! ${warnings.length} problem(s):\n${warnings.map((line) => `!!! ${line}`).join('\n')}`);
    const date = new Date().toISOString().slice(0, 19).replaceAll(':', '-');
    const resultsPath = join(benchDirectory, 'results', `${options.sizeLabel}-${date}.json`);
    await writeResults(resultsPath, {
      size: options.sizeLabel,
      byteLength,
      lineCount,
      runs: options.runs,
      date: new Date().toISOString(),
      commit: gitDescription(),
      machine: { cpu: cpus()[0]?.model, cpus: cpus().length, memoryBytes: totalmem(), platform: process.platform },
      versions: {
        node: process.version,
        grep: firstLine(['grep', '--version']),
        ripgrep: firstLine(['rg', '--version']),
        sed: firstLine(['sed', '--version']),
        coreutils: firstLine(['tail', '--version']),
      },
      notes,
      warnings,
      rows,
    });
    console.log(`\nresults: ${resultsPath}`);
  } finally {
    await rm(workDirectory, { recursive: true, force: true });
  }
}

await main();
