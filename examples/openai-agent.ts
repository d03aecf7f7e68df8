// An OpenAI agent whose build tool returns a 16 MiB log. spoolforge spools the log as it streams,
// the model sees a short handle plus artifact_* tools forged for that call, and finds the error
// by querying instead of reading. Per turn it prints the tokens the request carried beside what
// inlining the log would have cost.
//   npx tsx examples/openai-agent.ts [--api chat|responses]
// Without OPENAI_API_KEY a scripted model on 127.0.0.1 plays the model (offline, as in CI); with
// it, the real API answers (model OPENAI_MODEL, default gpt-4o-mini).
import assert from 'node:assert/strict';
import { parseArgs } from 'node:util';
import { countTokens } from 'gpt-tokenizer';
import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ResponseInput } from 'openai/resources/responses/responses';
import { defineTool, SpooledArtifact, type ToolCall } from 'spoolforge';
import { OpenAIToolSession } from 'spoolforge/openai';
import { z } from 'zod';
import { investigateLog } from './support/investigate-log-script.js';
import { openAIChatWire } from './support/openai-chat-wire.js';
import { openAIResponsesWire } from './support/openai-responses-wire.js';
import { startScriptedModel } from './support/scripted-model.js';

const { values } = parseArgs({ options: { api: { type: 'string', default: 'chat' } } });
if (values.api !== 'chat' && values.api !== 'responses') {
  throw new Error(`--api must be chat or responses, got ${values.api}`);
}
const logBytes = 16 * 1024 * 1024;
const failure =
  "src/spool/spool-writer.ts(212,9): error TS2322: Type 'string' is not assignable to type 'number'.";

/** A build log streamed in 1 MiB chunks, the compiler error about 80% of the way in. */
async function* buildLog(): AsyncGenerator<string> {
  const chunk = Array.from({ length: 16_384 }, (_, line) =>
    line % 25 === 24
      ? `warning: src/module-${line}.ts uses a deprecated API\n`
      : `[build] compiled src/module-${line}.ts in ${line % 97} ms\n`,
  ).join('');
  for (let written = 0; written < logBytes; written += chunk.length) {
    if (written === chunk.length * 13) yield `${failure}\n`;
    yield chunk;
  }
}

const runBuild = defineTool({
  name: 'run_build',
  description: 'Runs the full build and returns its complete log.',
  inputSchema: z.object({ target: z.string().describe('The build target, e.g. "all".') }),
  handler: () => buildLog(),
});

const apiKey = process.env.OPENAI_API_KEY;
const modelName = apiKey ? (process.env.OPENAI_MODEL ?? 'gpt-4o-mini') : 'scripted';
// Offline, a scripted model on 127.0.0.1 plays the model.
const scripted = apiKey
  ? undefined
  : await startScriptedModel({
      wires: [openAIChatWire, openAIResponsesWire],
      script: investigateLog({
        firstTool: 'run_build',
        firstArguments: { target: 'all' },
        pattern: 'error TS',
      }),
    });
const client = new OpenAI(
  scripted ? { apiKey: 'offline', baseURL: `${scripted.url}/v1` } : { apiKey: apiKey ?? '' },
);
const instructions =
  'You investigate build failures. Call run_build, then find the failing line with the ' +
  'artifact_* tools (large outputs are spooled, not shown). Answer with that line.';
const question = 'The build of target "all" fails. Why?';

await using agent = new OpenAIToolSession({ tools: [runBuild] });
/** Tokens of each handle the model was shown instead of a spooled output, by call id. */
const handleTokens = new Map<string, number>();

interface Step {
  /** The request's input tokens: as the API reports them, or counted offline (o200k_base). */
  requestTokens: number;
  /** The calls whose results the request carried (each spooled one as a handle). */
  carried: readonly ToolCall[];
  called: string[];
  answer?: string;
}

const chatMessages: ChatCompletionMessageParam[] = [
  { role: 'system', content: instructions },
  { role: 'user', content: question },
];
async function chatStep(): Promise<Step> {
  const dispatch = agent.chatCompletionsDispatch();
  const request = { model: modelName, messages: chatMessages, tools: dispatch.tools };
  const completion = await dispatch.track(
    client.chat.completions.create({ ...request, parallel_tool_calls: false }),
  );
  const requestTokens = scripted
    ? countTokens(JSON.stringify(request))
    : (completion.usage?.prompt_tokens ?? 0);
  const carried = dispatch.context.turnToolCalls;
  const message = completion.choices[0]?.message;
  if (!message?.tool_calls?.length) {
    return { requestTokens, carried, called: [], answer: message?.content ?? '' };
  }
  chatMessages.push(message);
  for (const answer of await dispatch.run(message.tool_calls)) {
    chatMessages.push(answer);
    if (answer.role === 'tool' && typeof answer.content === 'string')
      handleTokens.set(answer.tool_call_id, countTokens(answer.content));
  }
  const called = message.tool_calls.map((call) =>
    call.type === 'function'
      ? `${call.function.name} ${call.function.arguments}`
      : call.custom.name,
  );
  return { requestTokens, carried, called };
}

const responsesInput: ResponseInput = [{ role: 'user', content: question }];
async function responsesStep(): Promise<Step> {
  const dispatch = agent.responsesDispatch();
  const request = { model: modelName, instructions, input: responsesInput, tools: dispatch.tools };
  const response = await dispatch.track(
    client.responses.create({ ...request, parallel_tool_calls: false }),
  );
  const requestTokens = scripted
    ? countTokens(JSON.stringify(request))
    : (response.usage?.input_tokens ?? 0);
  const carried = dispatch.context.turnToolCalls;
  const calls = response.output.filter((item) => item.type === 'function_call');
  // Reasoning models need their reasoning items sent back beside the calls they led to.
  const reasoning = response.output.filter((item) => item.type === 'reasoning');
  if (calls.length === 0)
    return { requestTokens, carried, called: [], answer: response.output_text };
  const outputs = await dispatch.run(response.output);
  responsesInput.push(...reasoning, ...calls, ...outputs);
  for (const output of outputs)
    if (typeof output.output === 'string')
      handleTokens.set(output.call_id, countTokens(output.output));
  return { requestTokens, carried, called: calls.map((call) => `${call.name} ${call.arguments}`) };
}

/** The request's tokens had each spooled output it carried been inlined instead of its handle. */
async function inlinedTokens({ requestTokens, carried }: Step): Promise<number | undefined> {
  const spooled = carried.filter((call) => call.results instanceof SpooledArtifact);
  if (spooled.length === 0) return undefined;
  let total = requestTokens;
  for (const call of spooled) {
    const logTokens = await (call.results as SpooledArtifact).estimateTokens();
    total += logTokens - (handleTokens.get(call.id) ?? 0);
  }
  return total;
}

const number = (value: number) => value.toLocaleString('en-US');
console.log(`openai-agent: ${values.api} API, model ${modelName}${scripted ? ' (offline)' : ''}`);
let answer: string | undefined;
try {
  for (let turnNumber = 1; turnNumber <= 8; turnNumber++) {
    const started = performance.now();
    const step = values.api === 'chat' ? await chatStep() : await responsesStep();
    const milliseconds = (performance.now() - started).toFixed(0);
    const inlined = await inlinedTokens(step);
    console.log(
      `turn ${turnNumber} (${milliseconds} ms, request and tools): the request carried ` +
        `${number(step.requestTokens)} tokens` +
        (inlined === undefined ? '' : `; inlining the log would have cost ${number(inlined)}`),
    );
    for (const call of step.called) console.log(`  → ${call}`);
    if (step.answer !== undefined) {
      answer = step.answer;
      console.log(`  answer: ${answer}`);
      break;
    }
  }
  // Checked: the model answered from the spooled build log; offline, the scripted model grepped
  // it, read around the hit and quoted the compiler error.
  assert.ok(answer !== undefined, 'no answer within 8 turns');
  const [build] = agent.session.toolCalls;
  assert.ok(build?.results instanceof SpooledArtifact, 'the build log was not spooled');
  if (scripted) {
    const called = agent.session.toolCalls.map((call) => call.name);
    assert.deepEqual(called, ['run_build', 'artifact_grep', 'artifact_read']);
    assert.ok(answer.includes(failure), 'the answer does not quote the compiler error');
  }
} finally {
  await scripted?.close();
}
