// A long on-call conversation with a bounded context: every message and tool result goes into
// a ConversationLog (a JSONL file beside the ArtifactStore holding the outputs), each request
// sends a projection of it under a token budget (old tool outputs trimmed to refs), and when
// the projection no longer fits, or the provider's usage nears the context limit, the log is
// compacted by a summariser. A restart rebuilds the same projection from disk (handles of
// earlier outputs then name tool_output_cache).
//   npx tsx examples/long-conversation.ts                     offline, against a scripted model
//   OPENAI_API_KEY=… [OPENAI_MODEL=…] npx tsx examples/long-conversation.ts    the real API
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import {
  ArtifactStore,
  ConversationLog,
  compactLog,
  defineTool,
  type ProjectContextOptions,
  projectContext,
  shouldCompact,
  type TokenUsage,
  toolOutputCacheTools,
} from 'spoolforge';
import {
  fromChatCompletionsMessage,
  fromChatCompletionsToolCalls,
  OpenAIToolSession,
  openAISummariser,
  toChatCompletionsMessages,
  usageOfChatCompletion,
} from 'spoolforge/openai';
import { z } from 'zod';
import { onCallScript } from './support/on-call-script.js';
import { openAIChatWire } from './support/openai-chat-wire.js';
import { startScriptedModel } from './support/scripted-model.js';

/** A service's log (~2 MB), streamed; one ERROR line whose position depends on the service. */
async function* serviceLog(service: string) {
  const failing = 5_000 + ((service.length * 7_919) % 15_000);
  for (let batch = 0; batch < 20; batch++) {
    const lines: string[] = [];
    for (let line = batch * 1_000 + 1; line <= (batch + 1) * 1_000; line++) {
      lines.push(
        line === failing
          ? `2026-11-22T10:00:${String(line % 60).padStart(2, '0')}Z ERROR ${service} upstream payments-gateway timed out after 30000ms`
          : `2026-11-22T10:00:${String(line % 60).padStart(2, '0')}Z INFO  ${service} GET /api/cart/${line % 997} 200 ${line % 40}ms ${'·'.repeat(40)}`,
      );
    }
    yield `${lines.join('\n')}\n`;
  }
}

const fetchServiceLog = defineTool({
  name: 'fetch_service_log',
  description: "Returns a service's full log for the last hour (large: query it, don't read it).",
  inputSchema: z.object({ service: z.string() }),
  handler: ({ service }) => serviceLog(service),
});

const questions = [
  ...['checkout-api', 'cart', 'payments', 'inventory', 'shipping', 'search'].map(
    (service) => `Checkout failed. What does the ${service} log say went wrong?`,
  ),
  'Compare that with the very first service we looked at.',
];

const apiKey = process.env.OPENAI_API_KEY;
const scripted = apiKey
  ? undefined
  : await startScriptedModel({ wires: [openAIChatWire], script: onCallScript });
const client = scripted
  ? new OpenAI({ apiKey: 'offline', baseURL: `${scripted.url}/v1`, maxRetries: 0 })
  : new OpenAI({ apiKey });
const model = scripted ? 'scripted' : (process.env.OPENAI_MODEL ?? 'gpt-4o-mini');
const instructions = 'You are an on-call assistant. Query large tool outputs; never guess.';
// Small limits so a short demo trims and compacts; a real agent uses its model's window.
const projection: ProjectContextOptions = { contextBudgetTokens: 3_000, instructions };
const contextLimit = 6_000;
const directory = await mkdtemp(join(tmpdir(), 'spoolforge-long-conversation-'));

try {
  const store = await ArtifactStore.open(join(directory, 'store'));
  const log = await ConversationLog.open({ store, conversationId: 'on-call' });
  await using agent = new OpenAIToolSession({
    tools: [fetchServiceLog, ...toolOutputCacheTools(log)],
    store,
  });
  const summarise = openAISummariser({ client, model });
  let usage: TokenUsage = {};
  for (const question of questions) {
    await log.append({ role: 'user', content: question });
    for (let step = 0; step < 6; step++) {
      // The tools count against the budget too: their callId enums grow with the calls.
      let dispatch = agent.chatCompletionsDispatch();
      let view = await projectContext(log.history(), { ...projection, tools: dispatch.tools });
      if (view.overBudget || shouldCompact(usage, { contextLimit })) {
        await compactLog(log, { ...projection, summarise });
        // Calls summarised away stop being callIds; their outputs stay readable by ref.
        const { session } = agent;
        const compacted = session.toolCalls.filter(({ id }) => !log.toolMessage(id));
        await session.forget(compacted.map(({ id }) => id));
        console.log(
          `  compacted: the history is now the summary and ${log.events.length} messages`,
        );
        usage = {}; // The last usage measured the history before compaction.
        dispatch = agent.chatCompletionsDispatch();
        view = await projectContext(log.history(), { ...projection, tools: dispatch.tools });
      }
      const completion = await dispatch.track(
        client.chat.completions.create({
          model,
          messages: toChatCompletionsMessages(view.messages, { instructions }),
          tools: dispatch.tools,
        }),
      );
      usage = usageOfChatCompletion(completion);
      const message = completion.choices[0]?.message;
      if (!message) throw new Error('no reply');
      await log.append(fromChatCompletionsMessage(message));
      console.log(
        `  sent ${view.tokens} tokens (budget ${view.budgetTokens}, ${view.trimmed.length} outputs trimmed; ` +
          `with the tools, the provider counted ${usage.inputTokens})` +
          `${message.tool_calls?.length ? `; calls ${message.tool_calls.map((call) => (call.type === 'function' ? call.function.name : call.type)).join(', ')}` : ''}`,
      );
      if (!message.tool_calls?.length) {
        console.log(`Q: ${question}\nA: ${message.content}`);
        break;
      }
      const calls = fromChatCompletionsToolCalls(message.tool_calls);
      await log.appendToolOutcomes(await agent.session.run(calls, dispatch.context));
    }
  }
  const before = await projectContext(log.history(), projection);
  await log.close();
  // A new process would do just this: the working set comes back from the file. The handles
  // of outputs run before the restart now name tool_output_cache and their ref, since the new
  // session offers no artifact_* tool for them; every other message is as it was.
  const reopened = await ConversationLog.open({ store, conversationId: 'on-call' });
  const after = await projectContext(reopened.history(), projection);
  const renamed = after.messages.filter(
    (message, index) =>
      message.role === 'tool' &&
      message.content !== before.messages[index]?.content &&
      message.content.includes('Query it with tool_output_cache {"ref":'),
  );
  const same =
    after.messages.length === before.messages.length &&
    after.messages.every(
      (message, index) =>
        renamed.includes(message) ||
        JSON.stringify(message) === JSON.stringify(before.messages[index]),
    );
  console.log(
    `log: ${reopened.nextSeq} events on disk, ${reopened.events.length} in the working set; ` +
      `after a restart the projection is ${same ? 'the same' : 'DIFFERENT'} ` +
      `(${renamed.length} handles now name tool_output_cache)`,
  );
  await reopened.close();
  if (!same) process.exitCode = 1;
} finally {
  await scripted?.close();
  await rm(directory, { recursive: true, force: true });
}
