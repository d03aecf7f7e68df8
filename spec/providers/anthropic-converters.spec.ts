import type Anthropic from '@anthropic-ai/sdk';
import { defineTool, Media, SpoolforgeError, ToolRegistry, ToolSession } from 'spoolforge';
import {
  fromAnthropicContent,
  toAnthropicToolResults,
  toAnthropicTools,
} from 'spoolforge/anthropic';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const grepLogs = defineTool({
  name: 'grep_logs',
  description: 'Searches the logs.',
  inputSchema: z.object({ pattern: z.string(), limit: z.number().int().optional() }),
  handler: ({ pattern }) => `searched ${pattern}`,
});

/** Runs one call per tool (no arguments) and returns the outcomes. */
async function outcomesOf(tools: Parameters<typeof defineTool>[0][]) {
  const session = new ToolSession({ tools });
  const dispatch = session.dispatch();
  const requests = tools.map((tool, index) => ({
    id: `toolu_${index}`,
    name: tool.name,
    arguments: {},
  }));
  return session.run(requests, dispatch);
}

describe('toAnthropicTools', () => {
  it('converts zod schemas to object input_schemas, from a list or a registry', () => {
    const expected = {
      name: 'grep_logs',
      description: 'Searches the logs.',
      input_schema: {
        type: 'object',
        properties: { pattern: { type: 'string' }, limit: { type: 'integer' } },
        required: ['pattern'],
      },
    };
    expect(toAnthropicTools([grepLogs])).toMatchObject([expected]);
    expect(toAnthropicTools(new ToolRegistry([grepLogs]))).toMatchObject([expected]);
    expect(toAnthropicTools([grepLogs])[0]?.input_schema).not.toHaveProperty('$schema');
  });

  it('rejects a tool whose input is not an object schema, naming it', () => {
    const bad = defineTool({
      name: 'bad',
      description: '',
      inputSchema: z.string(),
      handler: () => '',
    });
    let error: unknown;
    try {
      toAnthropicTools([bad]);
    } catch (caught) {
      error = caught;
    }
    expect(SpoolforgeError.isInstance(error) && error.code).toBe('E_INVALID_ARGUMENT');
    expect((error as Error).message).toContain("'bad'");
  });
});

describe('fromAnthropicContent', () => {
  it('takes the tool_use blocks in order and skips everything else', () => {
    const content: Anthropic.ContentBlockParam[] = [
      { type: 'text', text: 'Let me look.' },
      { type: 'tool_use', id: 'toolu_a', name: 'grep_logs', input: { pattern: 'ERROR' } },
      { type: 'tool_use', id: 'toolu_b', name: 'artifact_read', input: { callId: 'x', last: 3 } },
    ];
    expect(fromAnthropicContent(content)).toEqual([
      { id: 'toolu_a', name: 'grep_logs', arguments: { pattern: 'ERROR' } },
      { id: 'toolu_b', name: 'artifact_read', arguments: { callId: 'x', last: 3 } },
    ]);
    expect(fromAnthropicContent('just text')).toEqual([]);
    expect(fromAnthropicContent([{ type: 'text', text: 'done' }])).toEqual([]);
  });
});

describe('toAnthropicToolResults', () => {
  it('marks errors, says when there was no output, and notes media the API cannot take', async () => {
    const bitmap = new Uint8Array(64).fill(0x42);
    const bigPng = new Uint8Array(2048).fill(0x50);
    const outcomes = await outcomesOf([
      {
        name: 'fails',
        description: '',
        inputSchema: z.object({}),
        handler: () => {
          throw new Error('disk full');
        },
      },
      { name: 'nothing', description: '', inputSchema: z.object({}), handler: () => undefined },
      {
        name: 'bitmap',
        description: '',
        inputSchema: z.object({}),
        handler: () => new Media(bitmap, { mediaType: 'image/bmp', name: 'old.bmp' }),
      },
      {
        name: 'big_png',
        description: '',
        inputSchema: z.object({}),
        handler: () => new Media(bigPng, { mediaType: 'image/png' }),
      },
    ]);
    const [failed, empty, unsupported, tooBig] = toAnthropicToolResults(outcomes, {
      maxImageBytes: 1024,
    });
    expect(failed).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_0', is_error: true });
    expect(JSON.stringify(failed?.content)).toContain('disk full');
    expect(empty).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_1',
      content: [{ type: 'text', text: '(no output)' }],
    });
    const notes = [unsupported, tooBig].flatMap((result) =>
      Array.isArray(result?.content) ? result.content : [],
    );
    expect(notes.map((block) => block.type)).toEqual(['text', 'text', 'text', 'text']);
    const texts = notes.map((block) => (block.type === 'text' ? block.text : ''));
    expect(texts[1]).toBe(
      '[image/bmp "old.bmp" (64 B) not attached: it is not an image or PDF the Messages API accepts]',
    );
    expect(texts[3]).toContain('not attached: it is larger than the 1.0 KiB image limit');
    expect(JSON.stringify([unsupported, tooBig])).not.toContain(
      Buffer.from(bitmap).toString('base64').slice(0, 40),
    );
    expect(JSON.stringify(tooBig)).not.toContain(
      Buffer.from(bigPng).toString('base64').slice(0, 40),
    );
  });
});
