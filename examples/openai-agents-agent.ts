// An agent on the OpenAI Agents SDK (`Agent` + `Runner`) whose tool returns the 10 MiB output of
// a test suite. spoolforge spools the output as it streams; the model gets a short handle, and
// from the next model call on the artifact_* tools with that call's id, and greps instead of
// reading. Per tool call it prints what the model called and the tokens it was shown beside
// what inlining would cost; the answer streams.
//   npx tsx examples/openai-agents-agent.ts
// Without OPENAI_API_KEY a scripted model on 127.0.0.1 plays the model (offline, as in CI); with
// it, the real API answers (model OPENAI_MODEL, default gpt-4.1-mini).
import assert from 'node:assert/strict';
import { Agent, OpenAIProvider, Runner } from '@openai/agents';
import { countTokens } from 'gpt-tokenizer';
import { defineTool, SpooledArtifact } from 'spoolforge';
import { spoolforgeAgentTools } from 'spoolforge/openai-agents';
import { z } from 'zod';
import { investigateLog } from './support/investigate-log-script.js';
import { openAIResponsesWire } from './support/openai-responses-wire.js';
import { startScriptedModel } from './support/scripted-model.js';

const outputBytes = 10 * 1024 * 1024;
const failure = 'FAIL spool/writer.spec.ts > spills past the threshold: expected 0o600, got 0o644';

/** A test run's output streamed suite by suite, the one failure about 60% of the way in. */
async function* testOutput(filter: string): AsyncGenerator<string> {
  const suite = Array.from(
    { length: 4_096 },
    (_, test) => `PASS ${filter}/module-${test % 64}.spec.ts > case ${test} (${test % 13} ms)\n`,
  ).join('');
  for (let written = 0; written < outputBytes; written += suite.length) {
    if (written >= outputBytes * 0.6 && written < outputBytes * 0.6 + suite.length) {
      yield `${failure}\n`;
    }
    yield suite;
  }
}

const runTests = defineTool({
  name: 'run_tests',
  description: 'Runs the test suite and returns its complete output (it can be very large).',
  inputSchema: z.object({ filter: z.string().describe('A folder of specs, e.g. "spool".') }),
  handler: ({ filter }) => testOutput(filter),
});

const apiKey = process.env.OPENAI_API_KEY;
// Offline, a scripted model on 127.0.0.1 plays the model.
const scripted = apiKey
  ? undefined
  : await startScriptedModel({
      wires: [openAIResponsesWire],
      script: investigateLog({
        firstTool: 'run_tests',
        firstArguments: { filter: 'spool' },
        pattern: 'FAIL',
      }),
    });
const modelProvider = new OpenAIProvider(
  scripted ? { apiKey: 'offline', baseURL: `${scripted.url}/v1` } : { apiKey: apiKey ?? '' },
);
const model = scripted ? 'scripted' : (process.env.OPENAI_MODEL ?? 'gpt-4.1-mini');
// Offline there is no trace to export; with a key the SDK exports traces to your dashboard.
const runner = new Runner({ modelProvider, tracingDisabled: Boolean(scripted) });

await using spoolforge = spoolforgeAgentTools({ tools: [runTests] });
const agent = new Agent({
  name: 'Test investigator',
  model,
  instructions:
    'You find why the test suite fails. Call run_tests, then find the failing test with the ' +
    'artifact_* tools (large outputs are spooled, not shown). Answer with its FAIL line.',
  tools: spoolforge.tools,
});
const number = (value: number) => value.toLocaleString('en-US');
agent.on('agent_tool_end', async (_context, tool, output, { toolCall }) => {
  console.log(`  → ${tool.name} ${'arguments' in toolCall ? toolCall.arguments : ''}`);
  const spooled = spoolforge.session.toolCalls.find(
    (call) => 'callId' in toolCall && call.id === toolCall.callId,
  );
  const inlined =
    spooled?.results instanceof SpooledArtifact
      ? `; inlined it would cost ~${number(await spooled.results.estimateTokens())}`
      : '';
  console.log(`    the model is shown ${number(countTokens(output))} tokens${inlined}`);
});

console.log(`openai-agents-agent: model ${model}${scripted ? ' (offline)' : ''}`);
try {
  const stream = await runner.run(agent, 'The test suite fails. Why?', {
    stream: true,
    maxTurns: 8,
    toolNotFoundBehavior: 'return_error_to_model',
  });
  let answer = '';
  for await (const text of stream.toTextStream()) {
    process.stdout.write(answer === '' ? `answer: ${text}` : text);
    answer += text;
  }
  await stream.completed;
  process.stdout.write('\n');

  // Checked: the output was spooled, not inlined, and it is the 10 MiB that was streamed;
  // offline, the scripted model grepped it, read around the hit and quoted the failing test.
  const [ran] = spoolforge.session.toolCalls;
  assert.ok(ran?.results instanceof SpooledArtifact, 'the output was not spooled');
  assert.ok((await ran.results.byteLength()) > outputBytes);
  if (scripted) {
    const called = spoolforge.session.toolCalls.map((call) => call.name);
    assert.deepEqual(called, ['run_tests', 'artifact_grep', 'artifact_read']);
    assert.ok(stream.finalOutput?.includes(failure), 'the answer does not quote the failing test');
  }
} finally {
  await scripted?.close();
}
