/**
 * Every performance goal in one command: `npm run bench:all -- [--log-size 4G] [--json-size 1G]
 * [--md-size 4M] [--remote-size 512M] [--runs 3] [--only log,json,md,remote]`. Runs the log
 * bench (`npm run bench`), `bench:json`, `bench:md` and `bench:remote` one after another, each
 * a child process with its own output, then prints one table of all their goals (target,
 * measured, ratio against the fastest peer, met / NOT met) from the results JSON each wrote,
 * and writes it to `bench/results/all-<date>.json`, the benches' own results beside it.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadAverage, runFacts } from '../shared/bench-options.js';
import { repositoryRoot, resultsDirectory } from '../shared/bench-paths.js';
import { formatGoals, type GoalResult, verdict } from '../shared/goal-result.js';
import { writeResults } from '../shared/report.js';

/** A bench this command runs: its entry and the size it gets unless told otherwise. */
interface BenchEntry {
  name: 'log' | 'json' | 'md' | 'remote';
  script: string;
  /** Passed as `--size`; `undefined` leaves the bench its own default. */
  defaultSize: string | undefined;
}

const benches: readonly BenchEntry[] = [
  { name: 'log', script: 'bench/cli/main.ts', defaultSize: '4G' },
  { name: 'json', script: 'bench/json/main.ts', defaultSize: undefined },
  { name: 'md', script: 'bench/md/main.ts', defaultSize: '4M' },
  { name: 'remote', script: 'bench/remote/main.ts', defaultSize: '512M' },
];

/** A goal of the combined table, with the bench it comes from. */
type BenchGoal = GoalResult & { bench: string };

/** What one bench's run left: its exit status, and the goals and warnings of its results. */
interface BenchOutcome {
  name: string;
  command: string;
  exitCode: number | null;
  seconds: number;
  resultsPath: string;
  goals: GoalResult[];
  warnings: string[];
}

function parseOptions() {
  const { values } = parseArgs({
    options: {
      'log-size': { type: 'string' },
      'json-size': { type: 'string' },
      'md-size': { type: 'string' },
      'remote-size': { type: 'string' },
      runs: { type: 'string' },
      only: { type: 'string' },
    },
  });
  const only = values.only?.split(',').map((name) => name.trim()) ?? [];
  const unknown = only.filter((name) => !benches.some((bench) => bench.name === name));
  if (unknown.length > 0) {
    throw new Error(`--only: unknown bench ${unknown.join(', ')} (log, json, md, remote)`);
  }
  const sizeOf = (bench: BenchEntry) => values[`${bench.name}-size`] ?? bench.defaultSize;
  return {
    selected: benches.filter((bench) => only.length === 0 || only.includes(bench.name)),
    sizeOf,
    runs: values.runs,
  };
}

/** Runs one bench as a child under plain `node --import tsx`, its output straight through. */
async function runBench(argv: readonly string[]): Promise<number | null> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...argv], {
    cwd: repositoryRoot,
    stdio: 'inherit',
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
}

async function readOutcome(
  resultsPath: string,
): Promise<{ goals: GoalResult[]; warnings: string[] } | undefined> {
  const text = await readFile(resultsPath, 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  const results = JSON.parse(text) as { goals?: GoalResult[]; warnings?: string[] };
  return { goals: results.goals ?? [], warnings: results.warnings ?? [] };
}

async function main(): Promise<void> {
  const options = parseOptions();
  const started = runFacts();
  const loadBefore = loadAverage();
  const stamp = started.date.slice(0, 19).replaceAll(':', '-');
  const outcomes: BenchOutcome[] = [];
  for (const bench of options.selected) {
    const size = options.sizeOf(bench);
    const resultsPath = join(resultsDirectory, `all-${stamp}-${bench.name}.json`);
    const argv = [
      bench.script,
      ...(size === undefined ? [] : ['--size', size]),
      ...(options.runs === undefined ? [] : ['--runs', options.runs]),
      '--results',
      resultsPath,
    ];
    const command = `node --import tsx ${argv.join(' ')}`;
    console.log(`\n=== bench:all: ${bench.name}: ${command}\n`);
    const start = performance.now();
    const exitCode = await runBench(argv);
    const seconds = (performance.now() - start) / 1000;
    const outcome = exitCode === 0 ? await readOutcome(resultsPath) : undefined;
    const failed = `exit status ${exitCode}${outcome || exitCode !== 0 ? '' : ', no results'}`;
    outcomes.push({
      name: bench.name,
      command,
      exitCode,
      seconds,
      resultsPath,
      goals: outcome?.goals ?? [
        {
          operation: `the ${bench.name} bench`,
          goal: 'runs to the end',
          measured: failed,
          met: null,
        },
      ],
      warnings: outcome?.warnings ?? [`${bench.name} bench failed: ${failed}`],
    });
  }
  const goals: BenchGoal[] = outcomes.flatMap((outcome) =>
    outcome.goals.map((goal) => ({ bench: outcome.name, ...goal })),
  );
  const warnings = outcomes.flatMap((outcome) =>
    outcome.warnings.map((warning) => `${outcome.name}: ${warning}`),
  );
  const count = (met: boolean | null) => goals.filter((goal) => goal.met === met).length;
  console.log(`\n=== bench:all: every goal, ${started.date} (${started.commit})\n`);
  console.log(formatGoals(goals, { title: 'bench', align: 'left', value: (goal) => goal.bench }));
  console.log(
    `\n${goals.length} goal${goals.length === 1 ? '' : 's'}: ${count(true)} ${verdict(true)}, ${count(false)} ${verdict(false)}, ${count(null)} ${verdict(null)}`,
  );
  for (const outcome of outcomes) {
    console.log(
      `- ${outcome.name}: ${outcome.seconds.toFixed(0)} s, exit ${outcome.exitCode}, ${outcome.resultsPath}`,
    );
  }
  console.log(`- load average (1, 5, 15 min) before: ${loadBefore}, after: ${loadAverage()}`);
  if (warnings.length > 0) {
    console.log(
      `\n!!! ${warnings.length} problem(s):\n${warnings.map((line) => `!!! ${line}`).join('\n')}`,
    );
  }
  const resultsPath = join(resultsDirectory, `all-${stamp}.json`);
  await writeResults(resultsPath, {
    ...started,
    runs: options.runs ?? 'each bench its default',
    benches: outcomes.map(({ goals: _goals, warnings: _warnings, ...outcome }) => outcome),
    warnings,
    goals,
  });
  console.log(`\nresults: ${resultsPath}`);
  if (outcomes.some((outcome) => outcome.exitCode !== 0)) process.exitCode = 1;
}

try {
  await main();
} catch (error) {
  console.error(`bench:all: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
