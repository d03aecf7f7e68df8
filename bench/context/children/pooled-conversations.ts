/**
 * Plays CONVERSATIONS conversations of TURNS turns each through a `ConversationPool` in STORE_DIR,
 * round-robin (turn 0 of every conversation, then turn 1…), as a server behind a chat UI would:
 * the README's long-conversation loop with a scripted model (project under the budget, compact
 * when over it, forget the calls compacted away; every fourth turn a ~4 KiB tool output stored,
 * then an `artifact_grep` on the latest one; BUDGET tokens). Measures, after a full GC: heap, RSS and open
 * descriptors with every conversation live; then, in a second pool of `maxLive` 64, the time to
 * revive each (hibernated, compacted) conversation and the descriptors and heap once all but
 * 64 are idle. Prints one {@link PoolReport}.
 * Run as `node --expose-gc pooled-conversations.mjs DIST_DIR STORE_DIR CONVERSATIONS TURNS BUDGET`.
 */
import { readdirSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

/** What the child prints. */
export interface PoolReport {
  conversations: number;
  turns: number;
  /** Conversations compacted at least once, and compactions in all. */
  compacted: number;
  compactions: number;
  /** Growth from the baseline (one warm-up conversation played and closed), after a full GC. */
  live: {
    heapBytes: number;
    heapTotalBytes: number;
    rssBytes: number;
    externalBytes: number;
    descriptors: number;
  };
  /** `live` again after the process idled `afterMs` with every conversation live. */
  settled: PoolReport['live'] & { afterMs: number };
  /** What the second half of the conversations added (the first half live already). */
  secondHalf: {
    conversations: number;
    heapBytes: number;
    /** V8's heap as committed (`heapTotal`): used plus free space it keeps. */
    heapTotalBytes: number;
    rssBytes: number;
  };
  /**
   * All revived once, then all but 64 hibernated: descriptors and RSS from the baseline, heap
   * held by the pool (before its `close()` against after).
   */
  idle: { live: number; heapBytes: number; rssBytes: number; descriptors: number };

  /**
   * Milliseconds to revive a hibernated conversation (`use` with an empty turn), sorted: of
   * those compacted at least once, and of the others (whose whole log is the working set).
   */
  revivalMs: { compacted: number[]; uncompacted: number[] };
  seconds: number;
}

const [distDirectory, storeDirectory, conversationsArgument, turnsArgument, budget] =
  process.argv.slice(2);
if (!distDirectory || !storeDirectory || !conversationsArgument || !turnsArgument || !budget) {
  process.stderr.write(
    'usage: pooled-conversations DIST_DIR STORE_DIR CONVERSATIONS TURNS BUDGET\n',
  );
  process.exit(2);
}
const library = (await import(
  pathToFileURL(`${distDirectory}/index.js`).href
)) as typeof import('spoolforge');
// The spec's scripted turn, compiled beside this script (it loads spoolforge by its name).
const { fetchLogs, scriptedTurn } = (await import(
  new URL('./pooled-turns.mjs', import.meta.url).href
)) as typeof import('../../../spec/helpers/pooled-turns.js');
type PooledConversation = import('spoolforge').PooledConversation;

const conversations = Number(conversationsArgument);
const turns = Number(turnsArgument);
const collect = (globalThis as { gc?: () => void }).gc;
const idleSettleMs = 15_000;
const projection = {
  contextBudgetTokens: Number(budget),
  instructions: 'You are an on-call assistant.',
};

let compactions = 0;
const compactedIds = new Set<string>();

/** One turn of the README loop, the model scripted: tools every fourth turn. */
async function turn(conversation: PooledConversation, index: number) {
  const options = { callEvery: 4, projection, withTools: true };
  if (await scriptedTurn(conversation, index, options)) {
    compactions++;
    compactedIds.add(conversation.conversationId);
  }
}

function measure() {
  collect?.();
  const usage = process.memoryUsage();
  return {
    heapBytes: usage.heapUsed,
    heapTotalBytes: usage.heapTotal,
    rssBytes: usage.rss,
    externalBytes: usage.external + usage.arrayBuffers,
    descriptors: readdirSync('/proc/self/fd').length,
  };
}

const started = performance.now();
const store = await library.ArtifactStore.open(storeDirectory);
const ids = Array.from({ length: conversations }, (_, index) => `c${index}`);
// Warm up: modules, the tokenizer, the regex threads; then the baseline.
const warm = new library.ConversationPool({ store, tools: [fetchLogs] });
for (let index = 0; index < 8; index++) await warm.use('warm-up', (each) => turn(each, index));
await warm.close();
const baseline = measure();

// Two halves played one after the other, all live: what the second adds is the cost of its
// conversations alone (the first already paid for warm code and V8's young generation).
const pool = new library.ConversationPool({ store, tools: [fetchLogs], maxLive: conversations });
const half = Math.floor(conversations / 2);
const play = async (cohort: string[]) => {
  for (let index = 0; index < turns; index++) {
    for (const id of cohort) await pool.use(id, (each) => turn(each, index));
  }
};
await play(ids.slice(0, half));
const firstHalf = measure();
await play(ids.slice(half));
const live = measure();
// V8 keeps the pages a GC freed committed until its memory reducer runs on an idle process.
await new Promise((resolve) => setTimeout(resolve, idleSettleMs));
const settled = measure();
await pool.close();

const idlePool = new library.ConversationPool({ store, tools: [fetchLogs], maxLive: 64 });
const revivalMs: PoolReport['revivalMs'] = { compacted: [], uncompacted: [] };
for (const id of ids) {
  const start = performance.now();
  await idlePool.use(id, async () => undefined);
  const elapsed = performance.now() - start;
  (compactedIds.has(id) ? revivalMs.compacted : revivalMs.uncompacted).push(elapsed);
}
const idle = measure();
const idleLive = idlePool.stats.live;
await idlePool.close();
const closed = measure();

const growth = (after: ReturnType<typeof measure>) => ({
  heapBytes: after.heapBytes - baseline.heapBytes,
  heapTotalBytes: after.heapTotalBytes - baseline.heapTotalBytes,
  rssBytes: after.rssBytes - baseline.rssBytes,
  externalBytes: after.externalBytes - baseline.externalBytes,
  descriptors: after.descriptors - baseline.descriptors,
});
const report: PoolReport = {
  conversations,
  turns,
  compacted: ids.filter((id) => compactedIds.has(id)).length,
  compactions,
  live: growth(live),
  settled: { ...growth(settled), afterMs: idleSettleMs },
  secondHalf: {
    conversations: conversations - half,
    heapBytes: live.heapBytes - firstHalf.heapBytes,
    heapTotalBytes: live.heapTotalBytes - firstHalf.heapTotalBytes,
    rssBytes: live.rssBytes - firstHalf.rssBytes,
  },
  idle: {
    live: idleLive,
    ...growth(idle),
    heapBytes: idle.heapBytes - closed.heapBytes,
  },
  revivalMs: {
    compacted: revivalMs.compacted.sort((a, b) => a - b),
    uncompacted: revivalMs.uncompacted.sort((a, b) => a - b),
  },
  seconds: (performance.now() - started) / 1000,
};
process.stdout.write(`${JSON.stringify(report)}\n`);
