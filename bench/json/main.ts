/**
 * The JSON benchmark: `npm run bench:json -- [--size 1G] [--runs 3] [--results PATH]`. On a
 * generated JSON array of API log records and a JSONL file of the same records, times
 * `SpooledJsonArtifact`'s queries (one fresh process each) and `spoolforge json` against jq and
 * a naive `JSON.parse`, checks every answer against the generator's counts, prints its goals
 * and a table and writes JSON to `bench/results/`.
 */
import { rm } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  firstLine,
  loadAverage,
  parseBenchOptions,
  privateDistCopy,
  runFacts,
} from '../shared/bench-options.js';
import { repositoryRoot, resultsDirectory } from '../shared/bench-paths.js';
import { ensureBuilt } from '../shared/ensure-built.js';
import { formatGoals } from '../shared/goal-result.js';
import { findGnuTime, runCommand } from '../shared/measure.js';
import { compileNodeScript } from '../shared/node-script.js';
import { writeResults } from '../shared/report.js';
import { ensureJsonData } from './generate-json.js';
import { evaluateJsonGoals } from './json-goals.js';
import { buildJsonMeasurements, runJsonMeasurement } from './json-measurements.js';
import {
  findJsonWarnings,
  formatJsonTable,
  type JsonResultRow,
  jsonRssGoalMebibytes,
} from './json-report.js';

const childrenDirectory = fileURLToPath(new URL('./children/', import.meta.url));
const mebibyte = 1024 * 1024;

async function main(): Promise<void> {
  const options = parseBenchOptions();
  const loadBefore = loadAverage();
  ensureBuilt(repositoryRoot);
  const gnuTimePath = findGnuTime();
  const jqVersion = firstLine(['jq', '--version']);
  const generationStart = performance.now();
  const data = await ensureJsonData({ size: options.size });
  console.error(
    `data: ${data.jsonPath} and .jsonl, ${data.recordCount} records (ready in ${((performance.now() - generationStart) / 1000).toFixed(1)} s)`,
  );
  const workDirectory = await privateDistCopy('spoolforge-json-bench-');
  try {
    const runOptions = {
      environment: process.env,
      gnuTimePath,
      stdoutPath: join(workDirectory, 'stdout.txt'),
      rssPath: join(workDirectory, 'rss.txt'),
    };
    // Reading both files once puts them in the page cache before anything is timed.
    for (const path of [data.jsonPath, data.jsonlPath]) {
      await runCommand({ argv: ['cat', path] }, { ...runOptions, stdoutPath: '/dev/null' });
    }
    const compile = (name: string) =>
      compileNodeScript(join(childrenDirectory, name), workDirectory);
    const measurements = buildJsonMeasurements(data, {
      distIndexPath: join(workDirectory, 'dist', 'index.js'),
      cliPath: join(workDirectory, 'dist', 'cli', 'main.js'),
      apiScriptPath: await compile('json-api.ts'),
      naiveScriptPath: await compile('naive-json.ts'),
      jq: jqVersion !== 'not installed',
    });
    const rows: JsonResultRow[] = [];
    for (const measurement of measurements) {
      rows.push(await runJsonMeasurement(measurement, { runs: options.runs, runOptions }));
    }
    const notes = [
      'goals: the CLI against jq -c where the CLI has a row (both spawn to exit), else the API (in-process time, no start-up) against jq; medians',
      `JSON array ${(data.jsonBytes / mebibyte).toFixed(0)} MiB, JSONL ${(data.jsonlBytes / mebibyte).toFixed(0)} MiB, ${data.recordCount} records, ${data.serverErrorCount} with status >= 500; page cache warm; median of ${options.runs} runs, one fresh process per run`,
      'spoolforge API: SpooledJsonArtifact.fromFile(path, { format }) from a copy of dist/ taken at the start; each process first calls length() (opening the document: the byte-offset index of the JSON array, the record count of JSONL), then the operation; "median s" is the operation alone, "+ open s" that length() before it',
      "shape() end to end: shape() on a fresh artifact without length() first, so the open (the JSON array's byte-offset index; nothing for JSONL) is timed with it, against the 100 MiB/s goal",
      'query $[90%:+10]: query(`$[N:N+10]`) with N = 90 % of the entries; filter 5xx, limit 100: query("$[?(@.status >= 500)]", { limit: 100 }); filter 5xx, count all: query("$[?(@.status >= 500)].id") with no limit, counting the matches',
      "spoolforge CLI: `spoolforge json --format FORMAT PATH FILE` printing one id a line (`$[N:N+10].id`, `--limit 100 '$[?(@.status >= 500)].id'`, then without --limit, and `$[*].id`), timed spawn to exit like jq; jq -c: the same ids printed by jq (the array loaded whole, JSONL through `inputs`)",
      `Node children report their own time (no start-up); jq is timed spawn to exit: ${jqVersion === 'not installed' ? 'not installed (apt-get install jq), rows skipped' : `${jqVersion}, the array loaded whole, JSONL reduced record by record`}`,
      'naive JSON.parse: JSON.parse(readFileSync(path, "utf8")) then .length or .filter(); V8 strings stop at ~512 MiB, so it fails past that',
      gnuTimePath
        ? `peak RSS from ${gnuTimePath} -f %M (whole process); goal ≤ ${jsonRssGoalMebibytes} MiB`
        : `peak RSS from process.resourceUsage().maxRSS (GNU time not found); goal ≤ ${jsonRssGoalMebibytes} MiB`,
      `load average (1, 5, 15 min) before: ${loadBefore}, after: ${loadAverage()} on ${cpus().length} CPUs`,
    ];
    console.log(`\nspoolforge JSON benchmark, ${options.sizeLabel}, ${new Date().toISOString()}\n`);
    const goals = evaluateJsonGoals(rows);
    console.log(`${formatGoals(goals)}\n`);
    console.log(formatJsonTable(rows));
    console.log(`\n${notes.map((note) => `- ${note}`).join('\n')}`);
    const warnings = findJsonWarnings(rows);
    if (warnings.length > 0) {
      console.log(
        `\n!!! ${warnings.length} problem(s):\n${warnings.map((line) => `!!! ${line}`).join('\n')}`,
      );
    }
    const resultsPath =
      options.resultsPath ?? join(resultsDirectory, `json-${options.sizeLabel}.json`);
    await writeResults(resultsPath, {
      size: options.sizeLabel,
      data,
      runs: options.runs,
      ...runFacts(),
      versions: { node: process.version, jq: jqVersion },
      notes,
      warnings,
      goals,
      rows,
    });
    console.log(`\nresults: ${resultsPath}`);
  } finally {
    await rm(workDirectory, { recursive: true, force: true });
  }
}

try {
  await main();
} catch (error) {
  console.error(`bench:json: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
