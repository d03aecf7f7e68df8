import { defineTool, type ToolEvent, ToolSession } from 'spoolforge';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const bound = 16 * 1024;

const write = defineTool({
  name: 'write_file',
  description: 'Writes a file.',
  inputSchema: z.object({ path: z.string(), content: z.string() }),
  handler: ({ content }) => `wrote ${content.length} characters`,
});

/** The `start` event of one call of `write_file` with `args` (a JSON string or parsed). */
async function startOf(args: unknown) {
  const events: ToolEvent[] = [];
  await using session = new ToolSession({ tools: [write], onEvent: (e) => events.push(e) });
  const [outcome] = await session.run(
    [{ id: 'call_1', name: 'write_file', arguments: args }],
    session.dispatch(),
  );
  const start = events[0];
  if (start?.type !== 'start') throw new Error('no start event');
  return { start, outcome };
}

/** Arguments whose JSON text is exactly `bytes` long, its content `fill` repeated. */
function argumentsOf(bytes: number, fill = 'x') {
  const empty = JSON.stringify({ path: 'a.txt', content: '' });
  const rest = bytes - empty.length;
  const fillBytes = Buffer.byteLength(fill);
  const content = fill.repeat(Math.floor(rest / fillBytes)) + 'y'.repeat(rest % fillBytes);
  const text = JSON.stringify({ path: 'a.txt', content });
  expect(Buffer.byteLength(text)).toBe(bytes);
  return text;
}

describe('the start event of a call with large arguments', () => {
  it('carries arguments of at most 16 KiB whole, parsed, as sent or already parsed', async () => {
    const text = argumentsOf(bound);
    for (const sent of [text, JSON.parse(text)]) {
      const { start } = await startOf(sent);
      expect(start).toEqual({
        type: 'start',
        toolCallId: 'call_1',
        toolName: 'write_file',
        arguments: JSON.parse(text),
      });
    }
  });

  it('carries the first 16 KiB of larger ones and their size; the call still runs whole', async () => {
    for (const bytes of [bound + 1, 1_000_000]) {
      const text = argumentsOf(bytes);
      for (const sent of [text, JSON.parse(text)]) {
        const { start, outcome } = await startOf(sent);
        expect(start.arguments).toBeUndefined();
        expect(start.argumentsPreview).toEqual({ text: text.slice(0, bound), byteLength: bytes });
        expect(JSON.stringify(start).length).toBeLessThan(bound + 200);
        expect(outcome?.isError).toBeFalsy();
        expect(outcome?.call.results).toBe(`wrote ${JSON.parse(text).content.length} characters`);
      }
    }
  });

  it('cuts at a character, never inside one (é is 2 bytes, 😀 4)', async () => {
    for (const fill of ['é', '😀']) {
      const text = argumentsOf(bound + 100, fill);
      const { start } = await startOf(text);
      const preview = start.argumentsPreview?.text ?? '';
      expect(preview).not.toContain('\uFFFD');
      expect(text.startsWith(preview)).toBe(true);
      expect(Buffer.byteLength(preview)).toBeLessThanOrEqual(bound);
      expect(Buffer.byteLength(preview)).toBeGreaterThan(bound - Buffer.byteLength(fill));
    }
  });

  it('bounds arguments that are not JSON the same way, with the error the model gets', async () => {
    const text = `{"path": "a.txt", "content": "${'z'.repeat(100_000)}`;
    const { start, outcome } = await startOf(text);
    expect(start.argumentsPreview).toEqual({ text: text.slice(0, bound), byteLength: text.length });
    expect(outcome?.call.error?.code).toBe('E_INVALID_TOOL_ARGS');
    const small = await startOf('{"path": ');
    expect(small.start.arguments).toBe('{"path": ');
  });
});
