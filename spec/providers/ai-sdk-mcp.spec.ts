// An MCP server's tools (`mcpTools`) inside the AI SDK tool set: the real `ai` generateText and
// `@ai-sdk/openai` Responses client against a scripted model, the MCP test server in memory.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { generateText, stepCountIs } from 'ai';
import { SpooledArtifact } from 'spoolforge';
import { spoolforgeToolSet } from 'spoolforge/ai-sdk';
import { mcpTools } from 'spoolforge/mcp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAIResponsesWire } from '../../examples/support/openai-responses-wire.js';
import { callIdsOf } from '../../examples/support/scripted-model.js';
import { errorEnvelopeText, startAiSdkModel, stepOptionsOf } from '../helpers/ai-sdk-scripted.js';
import { connectInMemoryTestServer, needle, pngBase64 } from '../helpers/mcp-test-server.js';

describe('spoolforge/ai-sdk with mcpTools', () => {
  let client: Client;
  beforeAll(async () => {
    client = await connectInMemoryTestServer();
  });
  afterAll(() => client.close());

  it('spools a big MCP result, greps it, passes an MCP image natively, reads a tool failure', async () => {
    const { model, provider } = await startAiSdkModel(
      (turn) => {
        const [spooledId] = callIdsOf(turn.tools.find((tool) => tool.name === 'artifact_grep'));
        if (turn.index === 0) {
          return {
            toolCalls: [
              { name: 'big_text', arguments: { megabytes: 2 } },
              { name: 'image', arguments: {} },
              { name: 'fail', arguments: { reason: 'disk full' } },
            ],
          };
        }
        if (turn.index === 1 && spooledId) {
          const grep = { callId: spooledId, pattern: 'NEEDLE', fixed: true };
          return { toolCalls: [{ name: 'artifact_grep', arguments: grep }] };
        }
        return { text: needle };
      },
      { wire: openAIResponsesWire },
    );
    await using spoolforge = spoolforgeToolSet({ tools: await mcpTools(client) });

    const result = await generateText({
      model: provider.responses('scripted'),
      prompt: 'Where did the build fail?',
      ...stepOptionsOf(spoolforge),
      stopWhen: stepCountIs(4),
    });

    expect(result.text).toBe(needle);
    const called = (name: string) =>
      spoolforge.session.toolCalls.find((call) => call.name === name);
    const [big, image, failed] = [called('big_text'), called('image'), called('fail')];
    expect(big?.results).toBeInstanceOf(SpooledArtifact);
    expect(failed?.error).toBeDefined();
    const outputs = (index: number) => {
      const input = (model.requests[index]?.body.input ?? []) as {
        type: string;
        output?: unknown;
      }[];
      return input
        .filter((item) => item.type === 'function_call_output')
        .map((item) => item.output);
    };
    const [handle, picture, failure] = outputs(1);
    expect(String(handle)).toContain(`callId "${big?.id}"`);
    expect(picture).toContainEqual({
      type: 'input_image',
      image_url: `data:image/png;base64,${pngBase64}`,
    });
    expect(errorEnvelopeText(String(failure)) ?? failure).toBe(
      'Error (E_TOOL_FAILED): MCP tool fail failed: cannot: disk full',
    );
    expect(image?.error).toBeUndefined();
    expect(String(outputs(2).at(-1))).toContain(needle);
  });
});
