/**
 * Plays turns [FROM, TO) of the scripted conversation of the context bench against a
 * `ConversationLog` in STORE_DIR, in a process of its own: each turn the user speaks, the
 * history is projected under the budget (compacted when over it), and every fourth turn the
 * assistant calls a tool whose output (10 KB–50 MB, log-uniform, seeded) is spooled into the
 * store. Appends one JSON sample a turn to SAMPLES and prints one {@link ConversationReport}.
 * Run as `node --expose-gc context-conversation.mjs DIST_INDEX STORE_DIR FROM TO MIN_OUTPUT MAX_OUTPUT SAMPLES`.
 */
import { createHash } from 'node:crypto';
import { appendFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

/** One request's measurement: a turn's first request, or the one after its tool results. */
export interface TurnSample {
  turn: number;
  /** The request answers the user's message, or the turn's tool results. */
  request: 'question' | 'results';
  /** Events in the log before this request: messages and compactions. */
  messages: number;
  /** Estimated tokens of the projection sent this turn. */
  tokens: number;
  budgetTokens: number;
  /** `heapUsed` after a full GC, at the question of every 10th turn; otherwise null. */
  heapBytes: number | null;
  trimmed: number;
  compacted: boolean;
}

/** What the child prints at the end. */
export interface ConversationReport {
  /** SHA-256 of the projection when the process started (after a restart: rebuilt from disk). */
  projectionAtStart: string;
  /** SHA-256 of the projection when it stopped, as a restart rebuilds it from the closed log. */
  projectionAtEnd: string;
  /** Events in the log at the end: messages and compactions. */
  events: number;
  compactions: number;
  toolOutputs: number;
  storedBytes: number;
  seconds: number;
  peakRssBytes: number;
}

const [distIndexPath, storeDirectory, from, to, minOutput, maxOutput, samplesPath] =
  process.argv.slice(2);
if (!distIndexPath || !storeDirectory || !from || !to || !minOutput || !maxOutput || !samplesPath) {
  process.stderr.write(
    'usage: context-conversation DIST_INDEX STORE_DIR FROM TO MIN_OUTPUT MAX_OUTPUT SAMPLES\n',
  );
  process.exit(2);
}
const library = (await import(
  pathToFileURL(distIndexPath).href
)) as typeof import('../../../src/index.js');
const { z } = await import('zod');

const contextWindow = 128_000;
const instructions = 'You are an SRE assistant. Investigate incidents from the tools’ outputs.';
const projectionOptions = { contextWindow, instructions, encoding: 'o200k_base' } as const;
const collect = (globalThis as { gc?: () => void }).gc;

/** A seeded PRNG (mulberry32): the same conversation on every run and across the restart. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** The size of turn `turn`'s tool output: log-uniform between the bounds. */
function outputSize(turn: number): number {
  const low = Math.log(Number(minOutput));
  const high = Math.log(Number(maxOutput));
  return Math.round(Math.exp(low + (high - low) * random(turn * 7_919)()));
}

/** A service log of `bytes` bytes, streamed in 64 KiB chunks; one ERROR line near the end. */
async function* serviceLog(turn: number, bytes: number) {
  const line = (index: number) =>
    `2026-11-22T10:${String(index % 60).padStart(2, '0')}:00Z INFO  checkout turn=${turn} request=${index} GET /api/cart 200 12ms\n`;
  let chunk = '';
  for (let index = 0; chunk.length < 64 * 1024; index++) chunk += line(index);
  let written = 0;
  while (written + chunk.length < bytes) {
    yield chunk;
    written += chunk.length;
  }
  const error = `2026-11-22T10:59:59Z ERROR checkout turn=${turn} payment gateway timed out\n`;
  yield `${chunk.slice(0, Math.max(0, bytes - written - error.length))}${error}`;
}

const fetchLogs = library.defineTool({
  name: 'fetch_logs',
  description: "Returns a service's log for a time window.",
  inputSchema: z.object({ turn: z.number().int(), bytes: z.number().int() }),
  handler: ({ turn, bytes }) => serviceLog(turn, bytes),
});

/** A deterministic stand-in for a model's summary: bounded, names the latest refs. */
const summarise: import('../../../src/index.js').Summariser = async (messages) => {
  const refs = messages.flatMap((message) =>
    message.role === 'tool' && message.ref ? [message.ref] : [],
  );
  const questions = messages.filter((message) => message.role === 'user').length;
  return (
    `<retain>\nLatest tool output refs: ${refs.slice(-5).join(', ') || 'none'}\n</retain>\n` +
    `<summary>\nThe user asked ${questions} questions about checkout incidents; ${refs.length} ` +
    'tool outputs were fetched and queried. The payment gateway timed out in each window.\n</summary>'
  );
};

const digest = (projection: { messages: unknown[]; tokens: number }) =>
  createHash('sha256').update(JSON.stringify(projection)).digest('hex');

const started = performance.now();
const store = await library.ArtifactStore.open(storeDirectory);
const log = await library.ConversationLog.open({ store, conversationId: 'context-bench' });
const projectionAtStart = digest(await library.projectContext(log.history(), projectionOptions));
await using session = new library.ToolSession({ tools: [fetchLogs], store });
let compactions = 0;
let toolOutputs = 0;
let storedBytes = 0;
const samples: string[] = [];

/** What the model would be sent now: projected, compacted first when over budget. */
async function request(turn: number, kind: TurnSample['request']) {
  let projection = await library.projectContext(log.history(), projectionOptions);
  const compacted = projection.overBudget;
  if (compacted) {
    await library.compactLog(log, { ...projectionOptions, summarise });
    compactions++;
    // The calls compaction summarised away are not offered as callIds any more.
    const gone = session.toolCalls.filter((call) => !log.toolMessage(call.id));
    await session.forget(gone.map((call) => call.id));
    projection = await library.projectContext(log.history(), projectionOptions);
  }
  const measureHeap = kind === 'question' && turn % 10 === 0;
  if (measureHeap) collect?.();
  samples.push(
    JSON.stringify({
      turn,
      request: kind,
      messages: log.nextSeq,
      tokens: projection.tokens,
      budgetTokens: projection.budgetTokens,
      heapBytes: measureHeap ? process.memoryUsage().heapUsed : null,
      trimmed: projection.trimmed.length,
      compacted,
    } satisfies TurnSample),
  );
}

for (let turn = Number(from); turn < Number(to); turn++) {
  const toolTurn = turn % 4 === 0;
  await log.append({
    role: 'user',
    content: toolTurn
      ? `Checkout failed around window ${turn}. Fetch the logs and find the error.`
      : `Turn ${turn}: what does that mean for the on-call rota? ${'Please be specific. '.repeat(8)}`,
  });
  await request(turn, 'question');
  if (toolTurn) {
    const arguments_ = JSON.stringify({ turn, bytes: outputSize(turn) });
    const call = { id: `call_${turn}`, name: 'fetch_logs', arguments: arguments_ };
    await log.append({ role: 'assistant', content: '', toolCalls: [call] });
    const dispatch = session.dispatch();
    dispatch.ack();
    const outcomes = await session.run([call], dispatch);
    await log.appendToolOutcomes(outcomes);
    toolOutputs++;
    for (const outcome of outcomes) {
      storedBytes += outcome.ref ? ((await store.info(outcome.ref))?.byteLength ?? 0) : 0;
    }
    await request(turn, 'results');
  }
  await log.append({
    role: 'assistant',
    content: toolTurn
      ? `The log of window ${turn} ends with: ERROR checkout turn=${turn} payment gateway timed out.`
      : `For turn ${turn}: keep the current rota; page payments on the next timeout. ${'Noted. '.repeat(10)}`,
  });
  if (samples.length >= 100) await appendFile(samplesPath, `${samples.splice(0).join('\n')}\n`);
}
if (samples.length > 0) await appendFile(samplesPath, `${samples.join('\n')}\n`);
const events = log.nextSeq;
await log.close();
// What a restart rebuilds from disk: handles of earlier calls then name tool_output_cache.
const rebuilt = await library.ConversationLog.open({ store, conversationId: 'context-bench' });
const projectionAtEnd = digest(await library.projectContext(rebuilt.history(), projectionOptions));
await rebuilt.close();
const report: ConversationReport = {
  projectionAtStart,
  projectionAtEnd,
  events,
  compactions,
  toolOutputs,
  storedBytes,
  seconds: (performance.now() - started) / 1000,
  peakRssBytes: process.resourceUsage().maxRSS * 1024,
};
process.stdout.write(`${JSON.stringify(report)}\n`);
