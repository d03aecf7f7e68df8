/**
 * Model-call bench: `npm run bench:model-calls [-- --turns 4000 --tools changing|stable]`.
 * Bytes, not speed.
 *
 * A 4,000-turn conversation in a JSONL log, two model calls a turn (the tool call, then the
 * answer after its result), each recorded with `log.modelCalls.record` in the Chat Completions
 * format with 7 tools, one of them with a `callId` enum of the last 8 calls (so the tool set
 * changes every turn: a worst case, since forged tools switch to a string past eight outputs).
 * Tool outputs are 8 KiB handles kept whole in the log; the projection's budget (20,000 tokens) trims them and compaction (a deterministic
 * summariser) keeps it bounded. Prints the bytes per turn of the model-call file beside the
 * bytes of the requests themselves and of the log, reads back every 97th call (and the last)
 * and checks each is byte for byte the request recorded, and writes JSON to `bench/results/`.
 */
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { repositoryRoot, resultsDirectory } from '../shared/bench-paths.js';
import { ensureBuilt } from '../shared/ensure-built.js';

const { values } = parseArgs({
  options: {
    turns: { type: 'string', default: '4000' },
    // `stable`: the grep tool's callId is a string, as forged tools' are past eight outputs.
    tools: { type: 'string', default: 'changing' },
  },
});
if (values.tools !== 'changing' && values.tools !== 'stable') {
  throw new Error('--tools: changing or stable');
}
const turns = Number(values.turns);
if (!Number.isInteger(turns) || turns < 1) throw new Error('--turns: a whole number ≥ 1');

ensureBuilt(repositoryRoot);
const library = (await import(
  join(repositoryRoot, 'dist', 'index.js')
)) as typeof import('../../src/index.js');
const openai = (await import(
  join(repositoryRoot, 'dist', 'providers', 'openai', 'index.js')
)) as typeof import('../../src/providers/openai/index.js');
const { ArtifactStore, ConversationLog, compactLog, projectContext } = library;
const { chatCompletionsFormat, toChatCompletionsMessages } = openai;

const instructions = `You are an SRE assistant. ${'Investigate incidents from the tools’ outputs; query large outputs instead of reading them. '.repeat(8)}`;
const projection = { contextBudgetTokens: 20_000, instructions };
const summarise: import('../../src/index.js').Summariser = async (messages) =>
  `<retain>\nturns so far: ${messages.length}\n</retain>\n<summary>\nIncidents were investigated one service at a time.\n</summary>`;

/** Six fixed tools and a forged one whose `callId` enum holds the last 8 call ids. */
function toolsFor(callIds: string[]) {
  const fixed = [
    'fetch_service_log',
    'run_query',
    'list_deploys',
    'read_runbook',
    'page_oncall',
    'open_ticket',
  ].map((name) => ({
    type: 'function' as const,
    function: {
      name,
      description: `${name.replaceAll('_', ' ')}: returns its full output (large outputs are spooled; query them).`,
      parameters: {
        type: 'object',
        properties: {
          service: { type: 'string', description: 'The service, e.g. "checkout-api".' },
        },
        required: ['service'],
        additionalProperties: false,
      },
    },
  }));
  const grep = {
    type: 'function' as const,
    function: {
      name: 'artifact_grep',
      description: 'Searches a spooled output for a pattern; answers numbered lines.',
      parameters: {
        type: 'object',
        properties: {
          callId:
            values.tools === 'stable'
              ? { type: 'string' }
              : { type: 'string', enum: callIds.slice(-8) },
          pattern: { type: 'string' },
        },
        required: ['callId', 'pattern'],
        additionalProperties: false,
      },
    },
  };
  return [...fixed, grep];
}

const directory = await mkdtemp(join(tmpdir(), 'spoolforge-model-calls-bench-'));
try {
  const store = await ArtifactStore.open(join(directory, 'store'));
  const log = await ConversationLog.open({ store, conversationId: 'bench' });
  const callIds: string[] = [];
  const sentBodies = new Map<number, string>();
  let requestBytes = 0;
  let calls = 0;
  let compactions = 0;
  const started = performance.now();

  async function modelCall() {
    let view = await projectContext(log.history(), projection);
    if (view.overBudget) {
      await compactLog(log, { ...projection, summarise });
      compactions++;
      view = await projectContext(log.history(), projection);
    }
    const request = {
      model: 'gpt-4o-mini',
      messages: toChatCompletionsMessages(view.messages, { instructions }),
      tools: toolsFor(callIds),
      parallel_tool_calls: false,
    };
    const body = JSON.stringify(request);
    requestBytes += body.length;
    const recorded = await log.modelCalls.record({
      projection: view,
      request,
      format: chatCompletionsFormat,
      formatOptions: { instructions },
      startedAt: Date.now(),
      usage: { inputTokens: view.tokens, outputTokens: 50, totalTokens: view.tokens + 50 },
    });
    if (recorded.call % 97 === 0 || recorded.call === turns * 2 - 1)
      sentBodies.set(recorded.call, body);
    calls++;
  }

  for (let turn = 0; turn < turns; turn++) {
    const service = `service-${turn % 37}`;
    await log.append({
      role: 'user',
      content: `Turn ${turn}: checkout failed again. What does the ${service} log say?`,
    });
    await modelCall();
    const id = `call_${turn}`;
    callIds.push(id);
    await log.append(
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id, name: 'fetch_service_log', arguments: JSON.stringify({ service }) }],
      },
      {
        role: 'tool',
        toolCallId: id,
        toolName: 'fetch_service_log',
        content: `Output stored: ${service}.log, 2,000 lines.\n${`INFO ${service} GET /api/cart 200 12ms ${'·'.repeat(30)}\n`.repeat(120)}ERROR ${service} upstream timed out`,
      },
    );
    await modelCall();
    await log.append({
      role: 'assistant',
      content: `The ${service} log shows an upstream timeout at turn ${turn}.`,
    });
  }
  const seconds = (performance.now() - started) / 1000;

  let checked = 0;
  for (const [call, body] of sentBodies) {
    const request = await log.modelCalls.request(call, { formats: [chatCompletionsFormat] });
    if (JSON.stringify(request) !== body) throw new Error(`call ${call} read back differently`);
    checked++;
  }
  await log.close();
  const conversations = join(store.directory, 'conversations');
  const modelCallBytes = (await stat(join(conversations, 'bench.model-calls.jsonl'))).size;
  const logBytes = (await stat(join(conversations, 'bench.jsonl'))).size;
  const report = {
    turns,
    tools: values.tools,
    calls,
    compactions,
    modelCallBytes,
    modelCallBytesPerTurn: Math.round(modelCallBytes / turns),
    modelCallBytesPerCall: Math.round(modelCallBytes / calls),
    requestBytesPerTurn: Math.round(requestBytes / turns),
    logBytesPerTurn: Math.round(logBytes / turns),
    callsReadBackByteEqual: checked,
    seconds: Math.round(seconds),
  };
  const number = (value: number) => value.toLocaleString('en-US');
  console.log(
    `${number(turns)} turns, ${number(calls)} model calls, ${compactions} compactions, ${values.tools} tools:\n` +
      `  model-call record: ${number(modelCallBytes)} bytes, ${number(report.modelCallBytesPerTurn)} per turn (${number(report.modelCallBytesPerCall)} per call)\n` +
      `  the requests themselves: ${number(report.requestBytesPerTurn)} bytes per turn\n` +
      `  the conversation log: ${number(report.logBytesPerTurn)} bytes per turn\n` +
      `  ${checked} calls read back byte for byte equal to the request sent`,
  );
  await mkdir(resultsDirectory, { recursive: true });
  await writeFile(
    join(resultsDirectory, `model-calls-${values.tools}.json`),
    `${JSON.stringify(report, null, 2)}\n`,
  );
} finally {
  if (process.env.KEEP_BENCH) console.log(directory);
  else await rm(directory, { recursive: true, force: true });
}
