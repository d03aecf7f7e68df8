// An agent on the Vercel AI SDK (`generateText`) whose tool returns a 12 MiB service log.
// spoolforge spools the log as it streams; the model gets a short handle, and from the next step
// on the artifact_* tools with that call's id, and greps instead of reading. Per step it prints
// the time, what the model called, and the tokens it was shown beside what inlining would cost.
//   npx tsx examples/ai-sdk-agent.ts
// Without OPENAI_API_KEY a scripted model on 127.0.0.1 plays the model (offline, as in CI); with
// it, the real API answers (model OPENAI_MODEL, default gpt-4o-mini).
import assert from 'node:assert/strict';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, stepCountIs } from 'ai';
import { countTokens } from 'gpt-tokenizer';
import { defineTool, SpooledArtifact } from 'spoolforge';
import { type SpoolforgeToolOutput, spoolforgeToolSet } from 'spoolforge/ai-sdk';
import { z } from 'zod';
import { investigateLog } from './support/investigate-log-script.js';
import { openAIChatWire } from './support/openai-chat-wire.js';
import { startScriptedModel } from './support/scripted-model.js';

const logBytes = 12 * 1024 * 1024;
const failure = 'ERROR storage-7 write failed: disk quota exceeded on /var/data (request 88213)';

/** A service log streamed in chunks, the failure about 70% of the way in. */
async function* serviceLog(service: string): AsyncGenerator<string> {
  const chunk = Array.from(
    { length: 8_192 },
    (_, line) => `INFO ${service}-${line % 8} request ${line} served in ${line % 97} ms\n`,
  ).join('');
  for (let written = 0; written < logBytes; written += chunk.length) {
    if (written >= logBytes * 0.7 && written < logBytes * 0.7 + chunk.length) yield `${failure}\n`;
    yield chunk;
  }
}

const fetchLog = defineTool({
  name: 'fetch_service_log',
  description: 'Returns the complete log of a service (it can be very large).',
  inputSchema: z.object({ service: z.string().describe('The service, e.g. "storage".') }),
  handler: ({ service }) => serviceLog(service),
});

const apiKey = process.env.OPENAI_API_KEY;
// Offline, a scripted model on 127.0.0.1 plays the model.
const scripted = apiKey
  ? undefined
  : await startScriptedModel({
      wires: [openAIChatWire],
      script: investigateLog({
        firstTool: 'fetch_service_log',
        firstArguments: { service: 'storage' },
        pattern: 'quota',
      }),
    });
const provider = createOpenAI(
  scripted ? { apiKey: 'offline', baseURL: `${scripted.url}/v1` } : { apiKey: apiKey ?? '' },
);
const modelName = scripted ? 'scripted' : (process.env.OPENAI_MODEL ?? 'gpt-4o-mini');

await using spoolforge = spoolforgeToolSet({ tools: [fetchLog] });
const number = (value: number) => value.toLocaleString('en-US');
let stepStarted = performance.now();

console.log(`ai-sdk-agent: model ${modelName}${scripted ? ' (offline)' : ''}`);
try {
  const { text, steps } = await generateText({
    model: provider.chat(modelName),
    instructions:
      'You investigate service failures. Call fetch_service_log, then find the failing line ' +
      'with the artifact_* tools (large outputs are spooled, not shown). Answer with that line.',
    prompt: 'The storage service fails. Why?',
    tools: spoolforge.tools,
    prepareStep: (step) => {
      stepStarted = performance.now();
      return spoolforge.prepareStep(step);
    },
    onStepError: spoolforge.onStepError, // nack: the request failed
    onStepEnd: async (step) => {
      spoolforge.onStepEnd(); // ack: this step's forged tools are pruned
      const milliseconds = (performance.now() - stepStarted).toFixed(0);
      console.log(`step ${step.stepNumber + 1} (${milliseconds} ms)`);
      for (const call of step.toolCalls)
        console.log(`  → ${call.toolName} ${JSON.stringify(call.input)}`);
      for (const result of step.toolResults) {
        const shown = countTokens((result.output as SpoolforgeToolOutput).text);
        const spooled = spoolforge.session.toolCalls.find((call) => call.id === result.toolCallId);
        const inlined =
          spooled?.results instanceof SpooledArtifact
            ? `; inlined it would cost ~${number(await spooled.results.estimateTokens())}`
            : '';
        console.log(`  ${result.toolName}: the model is shown ${number(shown)} tokens${inlined}`);
      }
      for (const part of step.content)
        if (part.type === 'tool-error') console.log(`  ${part.toolName} failed: ${part.error}`);
    },
    stopWhen: stepCountIs(8),
  });
  console.log(`answer (${steps.length} steps): ${text}`);

  // Checked: the log was spooled, not inlined, and it is the 12 MiB that was streamed; offline,
  // the scripted model grepped it, read around the hit and quoted the failing line.
  const [fetched] = spoolforge.session.toolCalls;
  assert.ok(fetched?.results instanceof SpooledArtifact, 'the log was not spooled');
  assert.ok((await fetched.results.byteLength()) > logBytes);
  if (scripted) {
    const called = steps.flatMap((step) => step.toolCalls.map((call) => call.toolName));
    assert.deepEqual(called, ['fetch_service_log', 'artifact_grep', 'artifact_read']);
    assert.ok(text.includes(failure), 'the answer does not quote the failing line');
  }
} finally {
  await scripted?.close();
}
