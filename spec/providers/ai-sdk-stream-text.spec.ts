// The real `ai` streamText and `@ai-sdk/openai` Chat Completions client (streaming, as the
// client asks for it) against a loopback model that answers with scripted replies.
import { stepCountIs, streamText } from 'ai';
import { spoolforgeToolSet } from 'spoolforge/ai-sdk';
import { describe, expect, it } from 'vitest';
import { logScenario } from '../helpers/ai-sdk-log-scenario.js';
import { produceLog, startAiSdkModel, stepOptionsOf } from '../helpers/ai-sdk-scripted.js';

describe('spoolforge/ai-sdk with streamText', () => {
  it('spools a 20 MB log, offers forged tools per step, breaks recursion, prunes on ack', async () => {
    const { model, chat } = await startAiSdkModel(logScenario.script);
    await using spoolforge = spoolforgeToolSet({ tools: [produceLog(logScenario.bytes)] });
    const streamed: string[] = [];

    const result = streamText({
      model: chat,
      prompt: 'Why does the storage service fail?',
      ...stepOptionsOf(spoolforge),
      stopWhen: stepCountIs(6),
    });
    for await (const delta of result.textStream) streamed.push(delta);

    // Every request asked for a stream: the client consumed server-sent events throughout.
    expect(model.requests.map((request) => request.body.stream)).toEqual([true, true, true, true]);
    expect(streamed.join('')).toBe('The disk quota on /var/data was exceeded.');
    const [text, steps] = await Promise.all([result.text, result.steps]);
    await logScenario.expect({ model, spoolforge, text, steps });
  });
});
