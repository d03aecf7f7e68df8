import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { JsonSpillParser } from '../../../src/mcp/upstream/json-spill-parser.js';
import { SPILLED_JSON_KEY, SpilledValues } from '../../../src/mcp/upstream/spilled-values.js';
import { SpoolWriter } from '../../../src/spool/spool-writer.js';

/** One message through a parser that spills every string value over 8 bytes. */
async function spillOne(spilled: SpilledValues, message: object) {
  const messages: Record<string, unknown>[] = [];
  const parser = new JsonSpillParser({
    spilled,
    spillBytes: 8,
    writer: { memoryThreshold: 16 },
    onmessage: (parsed) => messages.push(parsed as Record<string, unknown>),
  });
  await parser.write(Buffer.from(`${JSON.stringify(message)}\n`));
  await parser.end();
  return messages[0];
}

const original = {
  jsonrpc: '2.0',
  id: 5,
  result: {
    content: [
      { type: 'text', text: 'first long text é' },
      { type: 'resource', resource: { uri: 'file:///a', text: 'embedded long text' } },
    ],
    structuredContent: { rows: [{ name: 'a long row name' }] },
  },
};

describe('SpilledValues', () => {
  it('finds every token of a message and resolves it back to the original', async () => {
    const spilled = new SpilledValues();
    const message = await spillOne(spilled, original);
    expect(spilled.tokensIn(message)).toHaveLength(4);
    const result = message?.result as Record<string, Record<string, string>> | undefined;
    const structured = result?.structuredContent;
    expect(Object.keys(structured ?? {})).toEqual([SPILLED_JSON_KEY]);
    expect(await spilled.resolve(message)).toEqual(original);
    expect(spilled.size).toBe(0);
  });

  it('refuses to resolve past maxBytes and leaves the values in place', async () => {
    const spilled = new SpilledValues();
    const message = await spillOne(spilled, original);
    await expect(spilled.resolve(message, { maxBytes: 20 })).rejects.toMatchObject({
      code: 'E_ARTIFACT_TOO_LARGE',
    });
    expect(spilled.size).toBe(4);
    await spilled.releaseIn(message);
    expect(spilled.size).toBe(0);
  });

  it('removes the temp file of a released value', async () => {
    const spilled = new SpilledValues();
    const writer = new SpoolWriter({ memoryThreshold: 4 });
    await writer.write('more than four bytes');
    await writer.end();
    const token = spilled.add('string', writer, writer.byteLength);
    const path = writer.filePath;
    expect(path && existsSync(path)).toBe(true);
    expect(spilled.isToken(token)).toBe(true);
    expect(spilled.isToken('\u0000spoolforge-spilled:someone-else:0')).toBe(false);
    await spilled.releaseAll();
    expect(spilled.isToken(token)).toBe(false);
    expect(existsSync(path ?? '')).toBe(false);
  });
});
