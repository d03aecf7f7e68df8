/**
 * The Markdown benchmark: `npm run bench:md -- [--size 4M] [--runs 3] [--results PATH]`. On a
 * generated document
 * of that size, times `SpooledMarkdownArtifact`'s `headings()`, `sections()` and `codeBlocks()`
 * (one fresh process each) against markdown-it parsing the whole document in the same run,
 * checks that both find the generator's headings, prints the minimum of the runs with the
 * ratio against markdown-it and peak RSS, and writes JSON to `bench/results/`.
 */
import { spawnSync } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  loadAverage,
  parseBenchOptions,
  privateDistCopy,
  runFacts,
} from '../shared/bench-options.js';
import { repositoryRoot, resultsDirectory } from '../shared/bench-paths.js';
import { ensureBuilt } from '../shared/ensure-built.js';
import { formatGoals, type GoalResult, times, unmeasuredGoal } from '../shared/goal-result.js';
import { compileNodeScript } from '../shared/node-script.js';
import { renderTable, writeResults } from '../shared/report.js';
import type { MarkdownReport } from './children/md-parse.js';
import { ensureMarkdownData } from './generate-markdown.js';

const childrenDirectory = fileURLToPath(new URL('./children/', import.meta.url));
const mebibyte = 1024 * 1024;
/** The goal: each query at most this many times markdown-it's parse of the same document. */
const goalRatio = 2;
const operations = ['markdown-it', 'headings', 'sections', 'codeBlocks'] as const;

interface MarkdownRow {
  operation: string;
  seconds: number;
  mebibytesPerSecond: number;
  ratio: number;
  peakRssBytes: number;
  count: number;
  headingCount: number;
}

async function main(): Promise<void> {
  const { sizeLabel, size, runs, resultsPath: resultsOption } = parseBenchOptions('4M');
  const loadBefore = loadAverage();
  ensureBuilt(repositoryRoot);
  const data = await ensureMarkdownData({ size, sizeLabel });
  const workDirectory = await privateDistCopy('spoolforge-md-bench-');
  try {
    const script = await compileNodeScript(join(childrenDirectory, 'md-parse.ts'), workDirectory);
    const distIndex = join(workDirectory, 'dist', 'index.js');
    const reports = new Map<string, MarkdownReport[]>(operations.map((name) => [name, []]));
    // Interleaved, so a burst of load on the shared machine hits every operation alike.
    for (let run = 0; run < runs; run++) {
      for (const operation of operations) {
        const child = spawnSync(process.execPath, [script, distIndex, data.path, operation], {
          encoding: 'utf8',
        });
        if (child.status !== 0) throw new Error(`${operation}: ${child.stderr.slice(0, 2000)}`);
        reports.get(operation)?.push(JSON.parse(child.stdout) as MarkdownReport);
      }
    }
    const fastest = (name: string) =>
      (reports.get(name) ?? []).reduce((best, report) =>
        report.seconds < best.seconds ? report : best,
      );
    const peer = fastest('markdown-it');
    const rows: MarkdownRow[] = operations.map((operation) => {
      const best = fastest(operation);
      return {
        operation,
        seconds: best.seconds,
        mebibytesPerSecond: data.bytes / mebibyte / best.seconds,
        ratio: best.seconds / peer.seconds,
        peakRssBytes: Math.max(
          ...(reports.get(operation) ?? []).map((report) => report.peakRssBytes),
        ),
        count: best.count,
        headingCount: best.headingCount,
      };
    });
    const warnings = rows
      .filter((row) => row.headingCount !== data.headingCount)
      .map(
        (row) =>
          `${row.operation} found ${row.headingCount} headings, the generator wrote ${data.headingCount}`,
      );
    const goals = rows
      .filter((row) => row.operation !== 'markdown-it')
      .map((row): GoalResult => {
        const operation = `${row.operation}()`;
        const goal = `≤ ${goalRatio}× markdown-it's parse`;
        if (row.headingCount !== data.headingCount) {
          return unmeasuredGoal(operation, goal, `found ${row.headingCount} headings`);
        }
        return {
          operation,
          goal,
          measured: `${times(row.ratio)} markdown-it (${row.seconds.toFixed(3)} s vs ${peer.seconds.toFixed(3)} s, minimum of ${runs})`,
          ratio: row.ratio,
          met: row.ratio <= goalRatio,
        };
      });
    const notes = [
      `document ${(data.bytes / mebibyte).toFixed(1)} MiB, ${data.headingCount} headings, ${data.codeBlockCount} code blocks; minimum of ${runs} runs, one fresh process per run, page cache warm`,
      'markdown-it: readFileSync + new MarkdownIt().parse(text) of the whole document; spoolforge: SpooledMarkdownArtifact.fromFile(path) then the query (the first query builds the outline); both time the work alone, not module loading',
      "peak RSS: the child process's maxRSS (the largest of the runs)",
      `load average (1, 5, 15 min) before: ${loadBefore}, after: ${loadAverage()} on ${cpus().length} CPUs`,
    ];
    const table = renderTable<MarkdownRow>(
      [
        { title: 'operation', align: 'left', value: (row) => row.operation },
        { title: 'min s', align: 'right', value: (row) => row.seconds.toFixed(3) },
        { title: 'MiB/s', align: 'right', value: (row) => row.mebibytesPerSecond.toFixed(1) },
        { title: 'vs markdown-it', align: 'right', value: (row) => `${row.ratio.toFixed(2)}×` },
        {
          title: 'peak RSS MiB',
          align: 'right',
          value: (row) => (row.peakRssBytes / mebibyte).toFixed(0),
        },
        { title: 'found', align: 'right', value: (row) => String(row.count) },
      ],
      rows,
    );
    console.log(`\nspoolforge Markdown benchmark, ${sizeLabel}, ${new Date().toISOString()}\n`);
    console.log(`${formatGoals(goals)}\n`);
    console.log(table);
    console.log(`\n${notes.map((note) => `- ${note}`).join('\n')}`);
    if (warnings.length > 0) console.log(`\n${warnings.map((line) => `!!! ${line}`).join('\n')}`);
    const resultsPath = resultsOption ?? join(resultsDirectory, `md-${sizeLabel}.json`);
    await writeResults(resultsPath, {
      size: sizeLabel,
      data,
      runs,
      ...runFacts(),
      versions: { node: process.version },
      goals,
      notes,
      warnings,
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
  console.error(`bench:md: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
