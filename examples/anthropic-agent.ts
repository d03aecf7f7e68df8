// An agent on the Anthropic Messages API whose tool returns a large log. spoolforge spools the
// log, the model gets a short handle plus artifact_* tools to query it, and each turn prints the
// tokens the tool results carried beside what inlining them would have cost.
//   npx tsx examples/anthropic-agent.ts                      offline, against a scripted model
//   ANTHROPIC_API_KEY=… [ANTHROPIC_MODEL=…] npx tsx examples/anthropic-agent.ts    the real API
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import { defineTool, SpooledArtifact, type ToolCall } from 'spoolforge';
import { AnthropicToolSession } from 'spoolforge/anthropic';
import { approximateTokens } from 'spoolforge/engine';
import { z } from 'zod';
import { anthropicWire } from './support/anthropic-wire.js';
import { investigateLog } from './support/investigate-log-script.js';
import { startScriptedModel } from './support/scripted-model.js';

const logLines = 100_000;
const failingLine = 73_421;

/** A checkout service's log (~10 MB), streamed in batches as a real tool would stream it. */
async function* checkoutLog(service: string) {
  const batch: string[] = [];
  for (let line = 1; line <= logLines; line++) {
    const time = new Date(Date.UTC(2025, 5, 1, 12) + line * 37).toISOString();
    const requestId = `req-${String(line).padStart(6, '0')}`;
    batch.push(
      line === failingLine
        ? `${time} ERROR ${service} request_id=${requestId} POST /api/pay 502 payments-gateway timed out after 30000ms`
        : `${time} INFO  ${service} request_id=${requestId} GET /api/cart/${line % 997} 200 ${line % 40}ms`,
    );
    if (batch.length === 5_000) yield `${batch.splice(0).join('\n')}\n`;
  }
  if (batch.length > 0) yield `${batch.join('\n')}\n`;
}

const fetchServiceLog = defineTool({
  name: 'fetch_service_log',
  description: "Returns a service's full log for the last hour (large: query it, don't read it).",
  inputSchema: z.object({ service: z.string().describe('The service name, e.g. checkout-api.') }),
  handler: ({ service }) => checkoutLog(service),
});

const apiKey = process.env.ANTHROPIC_API_KEY;
// Offline, a scripted model on 127.0.0.1 plays the model.
const scripted = apiKey
  ? undefined
  : await startScriptedModel({
      wires: [anthropicWire],
      script: investigateLog({
        firstTool: 'fetch_service_log',
        firstArguments: { service: 'checkout-api' },
        pattern: 'ERROR',
      }),
    });
const client = scripted
  ? new Anthropic({ apiKey: 'offline', baseURL: scripted.url, maxRetries: 0 })
  : new Anthropic({ apiKey });
const model = scripted ? 'scripted' : (process.env.ANTHROPIC_MODEL ?? 'claude-sonnet-4-5');
console.log(`anthropic-agent: ${scripted ? `offline, scripted model at ${scripted.url}` : model}`);

const number = (value: number) => value.toLocaleString('en-US');

/** What a call's result would have cost inline: the whole artifact, or what was carried. */
async function inlineTokens(call: ToolCall, carried: number): Promise<number> {
  return call.results instanceof SpooledArtifact ? call.results.estimateTokens() : carried;
}

try {
  await using agent = new AnthropicToolSession({ tools: [fetchServiceLog] });
  const messages: Anthropic.MessageParam[] = [
    {
      role: 'user',
      content:
        'Some checkouts failed in the last hour. Fetch the checkout-api log, find the failing ' +
        'request and quote the log line that explains it.',
    },
  ];
  let answer: string | undefined;
  let totalCarried = 0;
  let totalInlined = 0;
  for (let turn = 1; turn <= 12; turn++) {
    const started = performance.now();
    const dispatch = agent.dispatch();
    const message = await dispatch.track(
      client.messages.create({ model, max_tokens: 2048, messages, tools: dispatch.tools }),
    );
    messages.push({ role: 'assistant', content: message.content });
    const callsBefore = agent.session.toolCalls.length;
    const results = await dispatch.run(message.content);
    const milliseconds = (performance.now() - started).toFixed(0);
    const usage = `${number(message.usage.input_tokens)} input tokens${scripted ? ' (~4 bytes a token)' : ''}`;
    console.log(`\nturn ${turn} (${milliseconds} ms): the request was ${usage}`);
    if (results.length === 0) {
      answer = message.content
        .map((block) => (block.type === 'text' ? block.text : ''))
        .join('')
        .trim();
      console.log(`  answer: ${answer}`);
      console.log(
        `\ntool results over the run: ~${number(totalCarried)} tokens carried, ~${number(totalInlined)} if inlined`,
      );
      break;
    }
    const calls = agent.session.toolCalls.slice(callsBefore);
    let carried = 0;
    let inlined = 0;
    for (const [index, call] of calls.entries()) {
      const tokens = approximateTokens(Buffer.byteLength(JSON.stringify(results[index]?.content)));
      const wouldBe = await inlineTokens(call, tokens);
      carried += tokens;
      inlined += wouldBe;
      totalCarried += tokens;
      totalInlined += wouldBe;
      const status = call.error ? ` → error ${call.error.code}` : '';
      console.log(`  ${call.name} ${JSON.stringify(call.arguments)}${status}`);
    }
    console.log(
      `  the next request carries ~${number(carried)} tokens of tool results; inlined: ~${number(inlined)}`,
    );
    messages.push({ role: 'user', content: results });
  }

  // Checked: the model answered, its tool results cost far less than the log inlined, and
  // offline the scripted model grepped the spooled log and quoted the failing request.
  assert.ok(answer !== undefined, 'no answer within 12 turns');
  assert.ok(totalInlined > 10 * totalCarried, 'the log was not kept out of the context');
  if (scripted) {
    const called = agent.session.toolCalls.map((call) => call.name);
    assert.deepEqual(called, ['fetch_service_log', 'artifact_grep', 'artifact_read']);
    assert.match(answer, /request_id=req-073421 POST \/api\/pay 502 payments-gateway timed out/);
  }
} finally {
  await scripted?.close();
}
