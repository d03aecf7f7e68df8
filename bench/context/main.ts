/**
 * Context bench: `npm run bench:context [-- --turns 4000 --min-output 10K --max-output 50M]`.
 *
 * A scripted 4,000-turn conversation: 10,000 messages, 1,000 of them tool outputs of 10 KiB to
 * 50 MiB (log-uniform, seeded; several GiB in all, spooled into an ArtifactStore in a temp
 * directory). Each turn the history is projected under the budget of a 128k-token window
 * (32k), and compacted when over it. The conversation runs as two processes: the second
 * reopens the log at turn 2,000 (message 5,000) and must rebuild the same projection the first
 * ended with. Prints tokens per turn against the budget, the heap after GC against the turn
 * number, peak RSS, and writes JSON and an SVG plot to `bench/results/`.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { repositoryRoot, resultsDirectory } from '../shared/bench-paths.js';
import { ensureBuilt } from '../shared/ensure-built.js';
import { parseSize } from '../shared/generate-log.js';
import { compileNodeScript } from '../shared/node-script.js';
import type { ConversationReport, TurnSample } from './children/context-conversation.js';
import { lineChartSvg } from './line-chart.js';

const { values } = parseArgs({
  options: {
    turns: { type: 'string', default: '4000' },
    'min-output': { type: 'string', default: '10K' },
    'max-output': { type: 'string', default: '50M' },
    keep: { type: 'boolean', default: false },
  },
});
const turns = Number(values.turns);
if (!Number.isInteger(turns) || turns < 2) throw new Error('--turns: a whole number ≥ 2');
const restartTurn = Math.floor(turns / 2);
const mebibyte = 1024 * 1024;

ensureBuilt(repositoryRoot);
const childDirectory = join(resultsDirectory, '.children');
await mkdir(childDirectory, { recursive: true });
// Compiled next to the repository's node_modules, so the child resolves zod.
const child = await compileNodeScript(
  fileURLToPath(new URL('./children/context-conversation.ts', import.meta.url)),
  childDirectory,
);
const workDirectory = await mkdtemp(join(tmpdir(), 'spoolforge-context-bench-'));
const samplesPath = join(workDirectory, 'samples.jsonl');

function runPhase(from: number, to: number): ConversationReport {
  const result = spawnSync(
    process.execPath,
    [
      '--expose-gc',
      child,
      join(repositoryRoot, 'dist', 'index.js'),
      join(workDirectory, 'store'),
      String(from),
      String(to),
      String(parseSize(values['min-output'])),
      String(parseSize(values['max-output'])),
      samplesPath,
    ],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 20 },
  );
  if (result.status !== 0) throw new Error(`the conversation child failed (${result.status})`);
  return JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '') as ConversationReport;
}

try {
  console.log(
    `context bench: ${turns} turns, restart at turn ${restartTurn}, outputs ${values['min-output']}–${values['max-output']}`,
  );
  const before = runPhase(0, restartTurn);
  const after = runPhase(restartTurn, turns);
  const samples = (await readFile(samplesPath, 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as TurnSample);
  const heap = samples.filter((sample) => sample.heapBytes !== null);
  const median = (numbers: number[]) =>
    [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)] ?? 0;
  const heapOf = (from: number, to: number) =>
    median(heap.filter((s) => s.turn >= from && s.turn < to).map((s) => s.heapBytes ?? 0)) /
    mebibyte;
  const tenth = Math.max(1, Math.floor(turns / 10));
  const overBudget = samples.filter((sample) => sample.tokens > sample.budgetTokens);
  const summary = {
    turns,
    events: after.events,
    toolOutputs: before.toolOutputs + after.toolOutputs,
    storedGiB: (before.storedBytes + after.storedBytes) / 1024 ** 3,
    compactions: before.compactions + after.compactions,
    budgetTokens: samples[0]?.budgetTokens,
    maxTokensPerRequest: Math.max(...samples.map((sample) => sample.tokens)),
    requestsOverBudget: overBudget.length,
    heapMiB: {
      firstTenth: heapOf(0, tenth),
      beforeRestart: heapOf(restartTurn - tenth, restartTurn),
      afterRestart: heapOf(restartTurn, restartTurn + tenth),
      lastTenth: heapOf(turns - tenth, turns),
    },
    peakRssMiB: { before: before.peakRssBytes / mebibyte, after: after.peakRssBytes / mebibyte },
    seconds: { before: before.seconds, after: after.seconds },
    sameProjectionAfterRestart: before.projectionAtEnd === after.projectionAtStart,
  };
  console.table({
    'tokens per request (max / budget)': `${summary.maxTokensPerRequest} / ${summary.budgetTokens}`,
    'requests over budget': summary.requestsOverBudget,
    compactions: summary.compactions,
    'tool outputs stored': `${summary.toolOutputs} (${summary.storedGiB.toFixed(2)} GiB)`,
    'heap after GC, MiB (first tenth / before restart / after / last tenth)': Object.values(
      summary.heapMiB,
    )
      .map((value) => value.toFixed(1))
      .join(' / '),
    'peak RSS, MiB (before / after restart)': `${summary.peakRssMiB.before.toFixed(0)} / ${summary.peakRssMiB.after.toFixed(0)}`,
    'seconds (before / after restart)': `${summary.seconds.before.toFixed(0)} / ${summary.seconds.after.toFixed(0)}`,
    'same projection after restart': summary.sameProjectionAfterRestart,
  });
  const date = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);
  const resultsPath = join(resultsDirectory, `context-${turns}-${date}.json`);
  await writeFile(resultsPath, `${JSON.stringify({ summary, samples }, null, 1)}\n`);
  const points = (pick: (sample: TurnSample) => number | null) =>
    samples.flatMap((sample): [number, number][] => {
      const value = pick(sample);
      return value === null
        ? []
        : [[sample.turn + (sample.request === 'results' ? 0.5 : 0), value]];
    });
  const svg = lineChartSvg({
    title: `spoolforge context projection: ${summary.events} log events, ${summary.toolOutputs} tool outputs (${summary.storedGiB.toFixed(1)} GiB)`,
    subtitle: `${cpus().length} cores, Node ${process.versions.node}, ${date}; restart at turn ${restartTurn}; ${summary.compactions} compactions`,
    xLabel: 'turn (a question, and every fourth turn a tool output)',
    panels: [
      {
        yLabel: 'tokens sent per request (o200k_base)',
        series: [
          { label: 'projection', color: '#3466b0', points: points((sample) => sample.tokens) },
          {
            label: 'budget',
            color: '#c0392b',
            dashed: true,
            points: points((sample) => sample.budgetTokens),
          },
        ],
      },
      {
        yLabel: 'heap used after GC (MiB)',
        series: [
          {
            label: 'agent process heap',
            color: '#e07b24',
            points: points((sample) =>
              sample.heapBytes === null ? null : sample.heapBytes / mebibyte,
            ),
          },
        ],
      },
    ],
  });
  await writeFile(resultsPath.replace(/\.json$/, '.svg'), svg);
  console.log(`results: ${resultsPath} (+ .svg)`);
  if (!summary.sameProjectionAfterRestart) process.exitCode = 1;
} finally {
  if (values.keep) console.log(`kept ${workDirectory}`);
  else await rm(workDirectory, { recursive: true, force: true });
}
