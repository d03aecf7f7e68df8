// The main job: a tool streams a large service log; spoolforge spools it as it arrives, and a
// model investigates it through the real OpenAI client, the executor and the forged artifact_*
// tools. Per turn it prints what the model was sent (tokens) beside what inlining the log would
// have cost, and how long the step took.
//   npm run demo -- --size 1G
// Offline (no OPENAI_API_KEY) a scripted model on 127.0.0.1 plays the model; with a key, the
// real API does (model OPENAI_MODEL, default gpt-4o-mini).
import assert from 'node:assert/strict';
import { parseArgs } from 'node:util';
import { countTokens } from 'gpt-tokenizer';
import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { defineTool, SpooledArtifact } from 'spoolforge';
import { formatBytes } from 'spoolforge/engine';
import { OpenAIToolSession } from 'spoolforge/openai';
import { z } from 'zod';
import { generateLog, parseSize, rareLiteral } from '../bench/shared/generate-log.js';
import { investigateLog } from './support/investigate-log-script.js';
import { openAIChatWire } from './support/openai-chat-wire.js';
import { startScriptedModel } from './support/scripted-model.js';

const { values } = parseArgs({ options: { size: { type: 'string', default: '256M' } } });
const size = parseSize(values.size);
const number = (value: number) => value.toLocaleString('en-US');

const fetchLog = defineTool({
  name: 'fetch_service_log',
  description: 'Fetches the complete log of the production services for the last day.',
  inputSchema: z.object({ day: z.string().describe('The day, YYYY-MM-DD.') }),
  handler: () => generateLog({ size }),
});

const apiKey = process.env.OPENAI_API_KEY;
// Offline, a scripted model on 127.0.0.1 plays the model.
const scripted = apiKey
  ? undefined
  : await startScriptedModel({
      wires: [openAIChatWire],
      script: investigateLog({
        firstTool: 'fetch_service_log',
        firstArguments: { day: '2026-11-21' },
        pattern: rareLiteral,
      }),
    });
const client = new OpenAI(
  scripted ? { apiKey: 'offline', baseURL: `${scripted.url}/v1` } : { apiKey: apiKey ?? '' },
);
const model = apiKey ? (process.env.OPENAI_MODEL ?? 'gpt-4o-mini') : 'scripted';
const messages: ChatCompletionMessageParam[] = [
  {
    role: 'system',
    content:
      'You investigate incidents. Fetch the service log, then find what failed with the ' +
      `artifact_* tools (large outputs are spooled, not shown). Look for ${rareLiteral}.`,
  },
  { role: 'user', content: 'Something broke in production yesterday (2026-11-21). What?' },
];

console.log(
  `spoolforge demo: a ${formatBytes(size)} log, model ${model}${scripted ? ' (scripted, offline)' : ''}\n`,
);
await using agent = new OpenAIToolSession({ tools: [fetchLog] });
const handleTokens = new Map<string, number>();
let answer: string | undefined;
try {
  for (let turnNumber = 1; turnNumber <= 8; turnNumber++) {
    const dispatch = agent.chatCompletionsDispatch();
    const request = { model, messages, tools: dispatch.tools };
    const sent = countTokens(JSON.stringify(request));
    let inlined = sent;
    for (const call of dispatch.context.turnToolCalls) {
      if (!(call.results instanceof SpooledArtifact)) continue;
      inlined += (await call.results.estimateTokens()) - (handleTokens.get(call.id) ?? 0);
    }
    const started = performance.now();
    const completion = await dispatch.track(
      client.chat.completions.create({ ...request, parallel_tool_calls: false }),
    );
    const message = completion.choices[0]?.message;
    const savings = inlined > sent ? `  (inlining the log: ${number(inlined)} tokens)` : '';
    console.log(`turn ${turnNumber}: the model was sent ${number(sent)} tokens${savings}`);
    if (!message?.tool_calls?.length) {
      answer = message?.content ?? '';
      console.log(`  answer: ${answer}`);
      break;
    }
    messages.push(message);
    const results = await dispatch.run(message.tool_calls);
    for (const [index, result] of results.entries()) {
      const call = message.tool_calls[index];
      const request =
        call?.type === 'function'
          ? `${call.function.name} ${call.function.arguments}`
          : 'custom tool';
      const content =
        result.role === 'tool' && typeof result.content === 'string' ? result.content : '';
      if (result.role === 'tool') handleTokens.set(result.tool_call_id, countTokens(content));
      console.log(`  → ${request}: ${number(countTokens(content))} tokens back`);
      for (const line of content.split('\n').slice(0, 4))
        console.log(`      ${line.slice(0, 110)}`);
    }
    messages.push(...results);
    console.log(`  step took ${(performance.now() - started).toFixed(0)} ms`);
  }
  // Checked: the model answered and the log it queried was spooled, at the size asked for; offline,
  // the scripted model grepped it and quoted a line with the rare literal.
  assert.ok(answer !== undefined, 'no answer within 8 turns');
  const [fetched] = agent.session.toolCalls;
  assert.ok(fetched?.results instanceof SpooledArtifact, 'the log was not spooled');
  assert.ok((await fetched.results.byteLength()) >= size);
  if (scripted) {
    const called = agent.session.toolCalls.map((call) => call.name);
    assert.deepEqual(called, ['fetch_service_log', 'artifact_grep', 'artifact_read']);
    assert.ok(answer.includes(rareLiteral), 'the answer does not quote the rare line');
  }
  console.log(`\npeak RSS ${formatBytes(process.resourceUsage().maxRSS * 1024)}`);
} finally {
  await scripted?.close();
}
