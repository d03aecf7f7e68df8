// An agent on the Gemini API (`@google/genai`) whose tool returns a large log. spoolforge spools
// the log, the model gets a short handle plus artifact_* tools to query it, and each turn prints
// the tokens the tool results carried beside what inlining them would have cost.
//   npx tsx examples/google-agent.ts                        offline, against a scripted model
//   GEMINI_API_KEY=… [GEMINI_MODEL=…] npx tsx examples/google-agent.ts     the real API
import assert from 'node:assert/strict';
import { type Content, GoogleGenAI } from '@google/genai';
import { GoogleToolSession } from 'spoolforge/google';
import { fetchServiceLog, number, ResultTokens } from './support/checkout-log.js';
import { geminiWire } from './support/gemini-wire.js';
import { investigateLog } from './support/investigate-log-script.js';
import { startScriptedModel } from './support/scripted-model.js';

const apiKey = process.env.GEMINI_API_KEY ?? process.env.GOOGLE_API_KEY;
// Offline, a scripted model on 127.0.0.1 plays the model (as Gemini 2 does, calls without ids).
const scripted = apiKey
  ? undefined
  : await startScriptedModel({
      wires: [geminiWire()],
      script: investigateLog({
        firstTool: 'fetch_service_log',
        firstArguments: { service: 'checkout-api' },
        pattern: 'ERROR',
      }),
    });
const ai = scripted
  ? new GoogleGenAI({ apiKey: 'offline', httpOptions: { baseUrl: scripted.url } })
  : new GoogleGenAI({ apiKey: apiKey ?? '' });
const model = scripted ? 'gemini-scripted' : (process.env.GEMINI_MODEL ?? 'gemini-2.5-flash');
console.log(`google-agent: ${scripted ? `offline, scripted model at ${scripted.url}` : model}`);

try {
  await using agent = new GoogleToolSession({ tools: [fetchServiceLog] });
  const contents: Content[] = [
    {
      role: 'user',
      parts: [
        {
          text:
            'Some checkouts failed in the last hour. Fetch the checkout-api log, find the failing ' +
            'request and quote the log line that explains it.',
        },
      ],
    },
  ];
  let answer: string | undefined;
  const tokens = new ResultTokens();
  for (let turn = 1; turn <= 12; turn++) {
    const started = performance.now();
    const dispatch = agent.dispatch();
    const response = await dispatch.track(
      ai.models.generateContent({ model, contents, config: { tools: dispatch.tools } }),
    );
    // The model's content goes back as it came: Gemini 3 needs its thought signatures.
    const content = response.candidates?.[0]?.content;
    const callsBefore = agent.session.toolCalls.length;
    const parts = await dispatch.run(content);
    const milliseconds = (performance.now() - started).toFixed(0);
    const prompt = number(response.usageMetadata?.promptTokenCount ?? 0);
    const usage = `${prompt} input tokens${scripted ? ' (~4 bytes a token)' : ''}`;
    console.log(`\nturn ${turn} (${milliseconds} ms): the request was ${usage}`);
    if (!content || parts.length === 0) {
      answer = (response.text ?? '').trim();
      console.log(`  answer: ${answer}`);
      console.log(`\n${tokens.summary()}`);
      break;
    }
    await tokens.turn(agent.session.toolCalls.slice(callsBefore), parts);
    contents.push(content, { role: 'user', parts });
  }

  // Checked: the model answered, its tool results cost far less than the log inlined, and
  // offline the scripted model grepped the spooled log and quoted the failing request.
  assert.ok(answer !== undefined, 'no answer within 12 turns');
  assert.ok(tokens.inlined > 10 * tokens.carried, 'the log was not kept out of the context');
  if (scripted) {
    const called = agent.session.toolCalls.map((call) => call.name);
    assert.deepEqual(called, ['fetch_service_log', 'artifact_grep', 'artifact_read']);
    assert.equal(agent.session.toolCalls[0]?.id, 'fc_1_0');
    assert.deepEqual(scripted.rejected, []);
    assert.match(answer, /request_id=req-073421 POST \/api\/pay 502 payments-gateway timed out/);
  }
} finally {
  await scripted?.close();
}
