/**
 * Resume bench: `npm run bench:resume [-- --events 10000 --kept 200 --runs 15]`.
 *
 * A conversation of 10,000 events (user turns, assistant replies and tool results of 200 B to
 * 4 KiB, seeded), compacted once so that the last 200 are the working set, written to a JSONL
 * log and to PostgreSQL (a throwaway server, as in the specs, or `--connection`). Then, as a
 * fresh machine would: open the log and project the history (PostgreSQL: on a pool already
 * connected, and on a new pool, so connecting is counted). Prints the median and minimum time of
 * open + first projection, and the events read (PostgreSQL: rows fetched and queries), for the
 * log with and without the compaction (without it, resuming reads the whole conversation).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type pg from 'pg';
import type {
  ConversationLogBackend,
  ConversationMessage,
  ConversationLog as Log,
} from '../../dist/index.js';
import { countingPool, startPostgres } from '../../spec/helpers/postgres-server.js';
import { seededRandom } from '../../spec/helpers/seeded-random.js';
import { repositoryRoot } from '../shared/bench-paths.js';
import { ensureBuilt } from '../shared/ensure-built.js';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '10000' },
    kept: { type: 'string', default: '200' },
    runs: { type: 'string', default: '15' },
    connection: { type: 'string' },
  },
});
const eventCount = Number(values.events);
const kept = Number(values.kept);
const runs = Number(values.runs);

ensureBuilt(repositoryRoot);
const { ConversationLog, JsonlConversationLogBackend, projectContext } = await import(
  '../../dist/index.js'
);
const { PostgresConversationLogBackend } = await import('../../dist/context/postgres/index.js');

/** The conversation's messages: a compaction goes in after message `eventCount - kept - 1`. */
function messages(): ConversationMessage[] {
  const random = seededRandom(4812);
  const text = (bytes: number) => 'x'.repeat(bytes);
  return Array.from({ length: eventCount - 1 }, (_, index): ConversationMessage => {
    const size = 200 + Math.floor(random() * 3_900);
    if (index % 3 === 0) return { role: 'user', content: text(size) };
    if (index % 3 === 1) return { role: 'assistant', content: text(size) };
    return { role: 'tool', toolCallId: `c${index}`, toolName: 'fetch', content: text(size) };
  });
}

async function fill(log: Log, compacted: boolean) {
  const all = messages();
  const before = compacted ? eventCount - kept - 1 : all.length;
  for (let start = 0; start < before; start += 500) {
    await log.append(...all.slice(start, Math.min(before, start + 500)));
  }
  if (!compacted) return;
  await log.recordCompaction({ retain: '', summary: 'Earlier turns.', keptFrom: before - 1 });
  await log.append(...all.slice(before));
}

/** A backend that counts the events `ConversationLog.open` pulled from it. */
function counted(backend: ConversationLogBackend, reads: { events: number }) {
  return {
    append: backend.append.bind(backend),
    close: () => backend.close?.() ?? Promise.resolve(),
    async *readBackward(options: Parameters<ConversationLogBackend['readBackward']>[0]) {
      for await (const logged of backend.readBackward(options)) {
        reads.events++;
        yield logged;
      }
    },
  } satisfies ConversationLogBackend;
}

/** A resumed log, and what to release after closing it (a pool the bench made). */
interface Resumed {
  log: Log;
  release?: () => Promise<void>;
}

async function timeResume(open: (reads: { events: number }) => Promise<Resumed>) {
  const times: number[] = [];
  const reads = { events: 0 };
  for (let run = 0; run < runs; run++) {
    reads.events = 0;
    const started = performance.now();
    const { log, release } = await open(reads);
    await projectContext(log.history(), { contextWindow: 128_000 });
    times.push(performance.now() - started);
    await log.close();
    await release?.();
  }
  times.sort((a, b) => a - b);
  const ms = (value: number | undefined) => `${(value ?? Number.NaN).toFixed(1)} ms`;
  return `median ${ms(times[Math.floor(times.length / 2)])}, min ${ms(times[0])}, ${reads.events} events read`;
}

const server = values.connection === undefined ? startPostgres() : undefined;
const connection = values.connection ?? server?.config ?? '';
/** Rows and queries `readBackward` fetched through the pools below, since last reset. */
const fetched = { pages: 0, rows: 0 };

// The pool an agent already has: connected once (a warm-up query) before any timing.
const { pool: warmPool } = countingPool(connection, fetched);
await warmPool.query('SELECT 1');
const directory = await mkdtemp(join(tmpdir(), 'spoolforge-resume-bench-'));
try {
  for (const compacted of [true, false]) {
    // Fresh ids: a `--connection` database may hold an earlier run's conversations.
    const id = `bench-${compacted ? 'compacted' : 'whole'}-${Date.now()}`;
    const label = compacted
      ? `${eventCount} events, last ${kept} kept`
      : `${eventCount} events, no compaction`;
    const path = join(directory, `${id}.jsonl`);
    const jsonlWriter = await ConversationLog.open({
      backend: await JsonlConversationLogBackend.open(path),
    });
    await fill(jsonlWriter, compacted);
    await jsonlWriter.close();
    const pgWriter = await ConversationLog.open({
      backend: await PostgresConversationLogBackend.open({ connection, conversationId: id }),
      conversationId: id,
    });
    await fill(pgWriter, compacted);
    await pgWriter.close();

    const jsonl = await timeResume(async (reads) => ({
      log: await ConversationLog.open({
        backend: counted(await JsonlConversationLogBackend.open(path), reads),
      }),
    }));
    const resumeFrom = (pool: pg.Pool) => async (reads: { events: number }) => {
      const backend = await PostgresConversationLogBackend.open({ pool, conversationId: id });
      return {
        log: await ConversationLog.open({ backend: counted(backend, reads), conversationId: id }),
      };
    };
    fetched.pages = 0;
    fetched.rows = 0;
    const warm = await timeResume(resumeFrom(warmPool));
    const perRun = { queries: fetched.pages / runs, rows: fetched.rows / runs };
    const cold = await timeResume(async (reads) => {
      const { pool } = countingPool(connection);
      return { ...(await resumeFrom(pool)(reads)), release: () => pool.end() };
    });
    console.log(
      [
        label,
        `  JSONL file:               ${jsonl}`,
        `  PostgreSQL, pool open:    ${warm} (${perRun.rows} rows fetched in ${perRun.queries} queries)`,
        `  PostgreSQL, new pool:     ${cold}`,
      ].join('\n'),
    );
  }
} finally {
  await rm(directory, { recursive: true, force: true });
  await warmPool.end();
  server?.stop();
}
