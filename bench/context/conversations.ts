/**
 * Many conversations in one process: `npm run bench:conversations [-- --conversations 1000
 * --turns 200 --budget 4000 --directory /dev/shm]`.
 *
 * A child process plays every conversation through one `ConversationPool` (the README's
 * long-conversation loop, a scripted model, a ~4 KiB stored tool output every fourth turn, a
 * budget of `--budget` tokens, small so conversations compact), all live at once, then revives each from its log
 * in a pool of 64. Prints the heap and RSS per live conversation, descriptors per idle one and
 * revival times against the goals (heap ≤ 300 KB and RSS ≤ 2× heap per live conversation, ≤ 2
 * descriptors per idle one, revival of a compacted conversation ≤ 10 ms at p95), and writes
 * JSON to `bench/results/`. `--directory` holds the store (the default temp directory fsyncs
 * every stored output; a tmpfs does not, and the run takes minutes instead of tens of them).
 */
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { repositoryRoot, resultsDirectory } from '../shared/bench-paths.js';
import { ensureBuilt } from '../shared/ensure-built.js';
import { compileNodeScript } from '../shared/node-script.js';
import type { PoolReport } from './children/pooled-conversations.js';

const { values } = parseArgs({
  options: {
    conversations: { type: 'string', default: '1000' },
    turns: { type: 'string', default: '200' },
    budget: { type: 'string', default: '4000' },
    directory: { type: 'string', default: tmpdir() },
  },
});
const conversations = Number(values.conversations);
const turns = Number(values.turns);
if (!Number.isInteger(conversations) || conversations < 1) throw new Error('--conversations: ≥ 1');
if (!Number.isInteger(turns) || turns < 1) throw new Error('--turns: a whole number ≥ 1');

ensureBuilt(repositoryRoot);
const childDirectory = join(resultsDirectory, '.children');
await mkdir(childDirectory, { recursive: true });
const child = await compileNodeScript(
  fileURLToPath(new URL('./children/pooled-conversations.ts', import.meta.url)),
  childDirectory,
);
// The child imports the spec's scripted turn from beside it.
await compileNodeScript(join(repositoryRoot, 'spec/helpers/pooled-turns.ts'), childDirectory);
const workDirectory = await mkdtemp(join(values.directory, 'spoolforge-conversations-bench-'));
const loadBefore = loadavg()[0] ?? 0;
try {
  console.log(
    `conversations bench: ${conversations} conversations × ${turns} turns, budget ${values.budget} tokens`,
  );
  const result = spawnSync(
    process.execPath,
    [
      '--expose-gc',
      child,
      join(repositoryRoot, 'dist'),
      join(workDirectory, 'store'),
      String(conversations),
      String(turns),
      values.budget,
    ],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 << 20 },
  );
  if (result.status !== 0) throw new Error(`the conversations child failed (${result.status})`);
  const report = JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '') as PoolReport;
  const kilobyte = 1000;
  const percentile = (sorted: number[], p: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
  // Per conversation: what the second half added with the first half live (the growth from the
  // baseline divided by all of them also charges them the process's warm-up).
  const heapPerLive = report.secondHalf.heapBytes / report.secondHalf.conversations;
  const rssPerLive = report.secondHalf.rssBytes / report.secondHalf.conversations;
  const idleConversations = conversations - report.idle.live;
  const descriptorsPerIdle = report.idle.descriptors / Math.max(1, idleConversations);
  const revival = report.revivalMs.compacted;
  const goals = {
    'heap per live conversation ≤ 300 KB': heapPerLive <= 300 * kilobyte,
    'RSS ≤ 2× heap per live conversation': rssPerLive <= 2 * heapPerLive,
    '≤ 2 descriptors per idle conversation': descriptorsPerIdle <= 2,
    'revival of a compacted conversation ≤ 10 ms p95': percentile(revival, 0.95) <= 10,
  };
  const loadAfter = loadavg()[0] ?? 0;
  console.table({
    'compacted conversations (compactions)': `${report.compacted} (${report.compactions})`,
    'heap per live conversation, KB (second half)': (heapPerLive / kilobyte).toFixed(0),
    'RSS per live conversation, KB (× heap; second half)': `${(rssPerLive / kilobyte).toFixed(0)} (${(rssPerLive / heapPerLive).toFixed(2)}×)`,
    'V8 heap committed per live conversation, KB (second half)': (
      report.secondHalf.heapTotalBytes /
      report.secondHalf.conversations /
      kilobyte
    ).toFixed(0),
    'heap / RSS growth from the baseline ÷ all conversations, KB': `${(report.live.heapBytes / conversations / kilobyte).toFixed(0)} / ${(report.live.rssBytes / conversations / kilobyte).toFixed(0)}`,
    [`heap / committed / RSS growth ÷ all, ${report.settled.afterMs / 1000} s idle later, KB`]: [
      report.settled.heapBytes,
      report.settled.heapTotalBytes,
      report.settled.rssBytes,
    ]
      .map((bytes) => (bytes / conversations / kilobyte).toFixed(0))
      .join(' / '),
    'external + array buffers per live conversation, KB': (
      report.live.externalBytes /
      conversations /
      kilobyte
    ).toFixed(1),
    'descriptors, all live': report.live.descriptors,
    [`descriptors, ${idleConversations} idle + ${report.idle.live} live`]: report.idle.descriptors,
    [`heap held by the pool, ${idleConversations} hibernated + ${report.idle.live} live, KB`]: (
      report.idle.heapBytes / kilobyte
    ).toFixed(0),
    'revival ms, compacted (p50 / p95 / max)': [0.5, 0.95, 1]
      .map((p) => percentile(revival, p).toFixed(2))
      .join(' / '),
    'revival ms, never compacted (p50 / p95, n)': `${[0.5, 0.95].map((p) => percentile(report.revivalMs.uncompacted, p).toFixed(2)).join(' / ')} (${report.revivalMs.uncompacted.length})`,
    seconds: report.seconds.toFixed(0),
    'load average (1 min, before / after)': `${loadBefore.toFixed(1)} / ${loadAfter.toFixed(1)}`,
  });
  console.table(goals);
  const date = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);
  const resultsPath = join(
    resultsDirectory,
    `conversations-${conversations}x${turns}-${date}.json`,
  );
  await writeFile(
    resultsPath,
    `${JSON.stringify({ cores: cpus().length, node: process.versions.node, loadBefore, loadAfter, goals, report }, null, 1)}\n`,
  );
  console.log(`results: ${resultsPath}`);
  if (Object.values(goals).includes(false)) process.exitCode = 1;
} finally {
  await rm(workDirectory, { recursive: true, force: true });
}
