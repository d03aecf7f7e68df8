import {
  DispatchContext,
  defaultArtifactKinds,
  type SpooledArtifact,
  spool,
  ToolCall,
} from 'spoolforge';
import { forgeArtifactTools, fromModelRange, toModelLine } from 'spoolforge/engine';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { invokeForged } from '../helpers/forged-tools.js';

const opened: SpooledArtifact[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((artifact) => artifact.close()));
});

async function spooledCall(id: string, text: string, options: { fromArtifactTool?: boolean } = {}) {
  const call = new ToolCall({ id, name: 'produce_log', arguments: {}, ...options });
  const artifact = await spool(text, { kind: 'text' });
  opened.push(artifact);
  call.results = artifact;
  return call;
}

const log = Array.from(
  { length: 5_000 },
  (_, index) => `${index % 1000 === 500 ? 'ERROR' : 'INFO'} line ${index + 1}`,
).join('\n');

const invoke = (context: DispatchContext, name: string, input: Record<string, unknown>) =>
  invokeForged(context, name, input);

describe('forgeArtifactTools', () => {
  it('forges no tools (never z.enum([])) when no call of the turn holds an artifact', () => {
    const inline = new ToolCall({ id: 'call_1', name: 'echo', arguments: {} });
    inline.results = 'small text';
    const context = new DispatchContext({ turnToolCalls: [inline] });
    const registry = forgeArtifactTools(defaultArtifactKinds, context);
    expect(registry.list()).toEqual([]);
  });

  it('offers the pinned tools, ephemeral, with a callId enum of spooled, non-artifact-tool calls', async () => {
    const real = await spooledCall('call_1', log);
    const fromTool = await spooledCall('call_2', log, { fromArtifactTool: true });
    const context = new DispatchContext({ turnToolCalls: [real, fromTool] });
    const tools = forgeArtifactTools(defaultArtifactKinds, context).list();
    expect(tools.map((tool) => tool.name)).toEqual([
      'artifact_head',
      'artifact_tail',
      'artifact_grep',
      'artifact_cat',
      'artifact_byte_length',
      'artifact_line_count',
      'artifact_estimate_tokens',
      'artifact_list',
    ]);
    for (const tool of tools) {
      expect(tool.ephemeral).toBe(true);
      expect(tool.onCollision).toBe('replace');
    }
    const grep = tools.find((tool) => tool.name === 'artifact_grep');
    const schema = z.toJSONSchema(grep?.inputSchema ?? z.never()) as unknown as {
      properties: { callId: { enum: string[] } };
    };
    expect(schema.properties.callId.enum).toEqual(['call_1']);
    expect(grep?.inputSchema.safeParse({ callId: 'call_2', pattern: 'x' }).success).toBe(false);
  });

  it('answers with 1-based numbered lines, the way grep -n and sed count', async () => {
    const context = new DispatchContext({ turnToolCalls: [await spooledCall('call_1', log)] });
    expect(await invoke(context, 'artifact_head', { callId: 'call_1', n: 2 })).toBe(
      'lines 1–2 of 5000:\n1:INFO line 1\n2:INFO line 2\n',
    );
    expect(await invoke(context, 'artifact_tail', { callId: 'call_1', n: 1 })).toBe(
      'lines 5000–5000 of 5000:\n5000:INFO line 5000\n',
    );
    expect(await invoke(context, 'artifact_cat', { callId: 'call_1', start: 501, end: 502 })).toBe(
      'lines 501–502 of 5000:\n501:ERROR line 501\n502:INFO line 502\n',
    );
    expect(
      await invoke(context, 'artifact_grep', {
        callId: 'call_1',
        pattern: 'ERROR',
        before: 1,
        maxCount: 2,
      }),
    ).toBe(
      '500-INFO line 500\n501:ERROR line 501\n--\n1500-INFO line 1500\n1501:ERROR line 1501\n2 matching lines (stopped at maxCount).\n',
    );
    expect(await invoke(context, 'artifact_line_count', { callId: 'call_1' })).toBe('5000 lines');
    expect(toModelLine(0)).toBe(1);
    expect(fromModelRange(501, 502)).toEqual({ start: 500, end: 502 });
  });

  it('bounds every result and names the exact call that continues it', async () => {
    const wide = Array.from(
      { length: 3_000 },
      (_, index) => `${index + 1} ${'w'.repeat(5_000)}`,
    ).join('\n');
    const context = new DispatchContext({ turnToolCalls: [await spooledCall('call_7', wide)] });
    const text = await invoke(context, 'artifact_cat', { callId: 'call_7' });
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(50 * 1024 + 300);
    expect(text).toMatch(/… \[line cut: 2000 of 500\d chars\]/);
    const note = /Continue with artifact_cat (\{.*\})\]/.exec(text);
    expect(note).not.toBeNull();
    const next = JSON.parse(note?.[1] ?? '{}') as { callId: string; start: number; end: number };
    const lastShown = Number(/\n(\d+):[^\n]*\n\[cut/.exec(text)?.[1]);
    expect(next).toEqual({ callId: 'call_7', start: lastShown + 1, end: 3000 });
    const grepText = await invoke(context, 'artifact_grep', { callId: 'call_7', pattern: 'w' });
    const grepNote = /Continue with artifact_grep (\{.*\})\]/.exec(grepText);
    expect(JSON.parse(grepNote?.[1] ?? '{}')).toMatchObject({ callId: 'call_7', pattern: 'w' });
    const continued = await invoke(context, 'artifact_grep', JSON.parse(grepNote?.[1] ?? '{}'));
    expect(continued.startsWith(`${JSON.parse(grepNote?.[1] ?? '{}').startLine}:`)).toBe(true);
  });

  it('lists what the model may query', async () => {
    const context = new DispatchContext({ turnToolCalls: [await spooledCall('call_1', log)] });
    expect(await invoke(context, 'artifact_list', {})).toBe(
      `call_1 tool=produce_log kind=text size=${(Buffer.byteLength(log) / 1024).toFixed(1)} KiB lines=5000`,
    );
  });
});
