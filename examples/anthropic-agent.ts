// An agent on the Anthropic Messages API whose tool returns a large log. spoolforge spools the
// log, the model gets a short handle plus artifact_* tools to query it, and each turn prints the
// tokens the tool results carried beside what inlining them would have cost.
//   npx tsx examples/anthropic-agent.ts                      offline, against a scripted model
//   ANTHROPIC_API_KEY=… [ANTHROPIC_MODEL=…] npx tsx examples/anthropic-agent.ts    the real API
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import { AnthropicToolSession } from 'spoolforge/anthropic';
import { anthropicWire } from './support/anthropic-wire.js';
import { fetchServiceLog, number, ResultTokens } from './support/checkout-log.js';
import { investigateLog } from './support/investigate-log-script.js';
import { startScriptedModel } from './support/scripted-model.js';

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
  const tokens = new ResultTokens();
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
      console.log(`\n${tokens.summary()}`);
      break;
    }
    await tokens.turn(
      agent.session.toolCalls.slice(callsBefore),
      results.map((result) => result.content),
    );
    messages.push({ role: 'user', content: results });
  }

  // Checked: the model answered, its tool results cost far less than the log inlined, and
  // offline the scripted model grepped the spooled log and quoted the failing request.
  assert.ok(answer !== undefined, 'no answer within 12 turns');
  assert.ok(tokens.inlined > 10 * tokens.carried, 'the log was not kept out of the context');
  if (scripted) {
    const called = agent.session.toolCalls.map((call) => call.name);
    assert.deepEqual(called, ['fetch_service_log', 'artifact_grep', 'artifact_read']);
    assert.match(answer, /request_id=req-073421 POST \/api\/pay 502 payments-gateway timed out/);
  }
} finally {
  await scripted?.close();
}
