import {
  DispatchContext,
  defaultArtifactKinds,
  type SpooledArtifact,
  type SpooledJsonArtifact,
  type SpooledJsonArtifactOptions,
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

  it('offers the pinned tools, ephemeral, with a callId enum of spooled calls, never an artifact tool call that answered text', async () => {
    const real = await spooledCall('call_1', log);
    // An artifact tool's call whose result is an artifact derived a new output: offered.
    const derived = await spooledCall('call_2', log, { fromArtifactTool: true });
    const answered = new ToolCall({ id: 'call_3', name: 'artifact_grep', arguments: {} });
    answered.fromArtifactTool = true;
    answered.results = '1:ERROR line 501';
    const context = new DispatchContext({ turnToolCalls: [real, derived, answered] });
    const tools = forgeArtifactTools(defaultArtifactKinds, context).list();
    expect(tools.map((tool) => tool.name)).toEqual([
      'artifact_read',
      'artifact_grep',
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
    expect(schema.properties.callId.enum).toEqual(['call_1', 'call_2']);
    expect(grep?.inputSchema.safeParse({ callId: 'call_3', pattern: 'x' }).success).toBe(false);
  });

  it('answers with 1-based numbered lines, the way grep -n and sed count', async () => {
    const context = new DispatchContext({ turnToolCalls: [await spooledCall('call_1', log)] });
    expect(await invoke(context, 'artifact_read', { callId: 'call_1', end: 2 })).toBe(
      'lines 1–2 of 5000:\n1:INFO line 1\n2:INFO line 2\n',
    );
    expect(await invoke(context, 'artifact_read', { callId: 'call_1', last: 1 })).toBe(
      'lines 5000–5000 of 5000:\n5000:INFO line 5000\n',
    );
    expect(await invoke(context, 'artifact_read', { callId: 'call_1', start: 501, end: 502 })).toBe(
      'lines 501–502 of 5000:\n501:ERROR line 501\n502:INFO line 502\n',
    );
    expect(await invoke(context, 'artifact_read', { callId: 'call_1', start: 4999 })).toBe(
      'lines 4999–5000 of 5000:\n4999:INFO line 4999\n5000:INFO line 5000\n',
    );
    expect(
      await invoke(context, 'artifact_grep', {
        callId: 'call_1',
        pattern: 'ERROR',
        context: 1,
        maxCount: 2,
      }),
    ).toBe(
      '500-INFO line 500\n501:ERROR line 501\n502-INFO line 502\n--\n' +
        '1500-INFO line 1500\n1501:ERROR line 1501\n1502-INFO line 1502\n' +
        '2 matching lines (stopped at maxCount).\n',
    );
    expect(toModelLine(0)).toBe(1);
    expect(fromModelRange(501, 502)).toEqual({ start: 500, end: 502 });
  });

  it('refuses last together with start or end, and an end before the start', async () => {
    const context = new DispatchContext({ turnToolCalls: [await spooledCall('call_1', log)] });
    for (const input of [
      { callId: 'call_1', start: 2, last: 3 },
      { callId: 'call_1', end: 9, last: 3 },
    ]) {
      await expect(invoke(context, 'artifact_read', input)).rejects.toMatchObject({
        code: 'E_INVALID_TOOL_ARGS',
        message: 'Give last, or start/end, not both',
      });
    }
    await expect(
      invoke(context, 'artifact_read', { callId: 'call_1', start: 9, end: 2 }),
    ).rejects.toMatchObject({ code: 'E_INVALID_TOOL_ARGS' });
  });

  it('bounds every result and names the exact call that continues it', async () => {
    const wide = Array.from(
      { length: 3_000 },
      (_, index) => `${index + 1} ${'w'.repeat(5_000)}`,
    ).join('\n');
    const context = new DispatchContext({ turnToolCalls: [await spooledCall('call_7', wide)] });
    // Neither a range nor last: the first lines, up to the bounds.
    const text = await invoke(context, 'artifact_read', { callId: 'call_7' });
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(50 * 1024 + 300);
    expect(text).toMatch(/… \[line cut: 2000 of 500\d chars\]/);
    const note = /Continue with artifact_read (\{.*\})\]/.exec(text);
    expect(note).not.toBeNull();
    const next = JSON.parse(note?.[1] ?? '{}') as { callId: string; start: number; end: number };
    const lastShown = Number(/\n(\d+):[^\n]*\n\[cut/.exec(text)?.[1]);
    expect(next).toEqual({ callId: 'call_7', start: lastShown + 1, end: 3000 });
    expect(text.startsWith(`lines 1–${lastShown} of 3000:\n`)).toBe(true);
    const last = await invoke(context, 'artifact_read', { callId: 'call_7', last: 2_000 });
    expect(last.startsWith('lines 1001–')).toBe(true);
    expect(last).toMatch(
      /Continue with artifact_read \{"callId":"call_7","start":\d+,"end":3000\}\]/,
    );
    const grepText = await invoke(context, 'artifact_grep', { callId: 'call_7', pattern: 'w' });
    const grepNote = /Continue with artifact_grep (\{.*\})\]/.exec(grepText);
    expect(JSON.parse(grepNote?.[1] ?? '{}')).toMatchObject({ callId: 'call_7', pattern: 'w' });
    const continued = await invoke(context, 'artifact_grep', JSON.parse(grepNote?.[1] ?? '{}'));
    expect(continued.startsWith(`${JSON.parse(grepNote?.[1] ?? '{}').startLine}:`)).toBe(true);
  });

  it('lists what the model may query: id, tool, kind, bytes, lines and tokens', async () => {
    const call = await spooledCall('call_1', log);
    const context = new DispatchContext({ turnToolCalls: [call] });
    const bytes = Buffer.byteLength(log);
    const tokens = await (call.results as SpooledArtifact).estimateTokens();
    expect(await invoke(context, 'artifact_list', {})).toBe(
      `call_1 tool=produce_log kind=text bytes=${bytes} (${(bytes / 1024).toFixed(1)} KiB) lines=5000 tokens=${tokens} (o200k)`,
    );
  });

  it('sends a model from a JSON error to the text tools it is offered, by their names', async () => {
    const offered = forgeArtifactTools(
      defaultArtifactKinds,
      new DispatchContext({ turnToolCalls: [await spooledCall('call_1', log)] }),
    )
      .list()
      .map((tool) => tool.name);
    const invalid = await spool('{"a": 1 1}', { kind: 'json' });
    const items = { items: Array.from({ length: 200 }, (_, index) => ({ name: `n${index}` })) };
    const small: SpooledJsonArtifactOptions = { maxParseBytes: 1024 };
    const large = await spool(JSON.stringify(items), { kind: 'json', ...small });
    opened.push(invalid, large);
    // A filter needs each entry whole, and the one entry is past maxParseBytes.
    const messages = await Promise.all(
      [invalid, large].map((artifact) =>
        (artifact as SpooledJsonArtifact)
          .query('$[?(@.total > 1)]')
          .then(() => 'no error')
          .catch((error: Error) => error.message),
      ),
    );
    expect(messages[0]).toMatch(/^Invalid JSON at line 1, column 9: .*\. The text tools \(/);
    expect(messages[1]).toMatch(/is larger than maxParseBytes .*read its text with /);
    for (const message of messages) {
      const named = String(message).match(/\bartifact_\w+/g) ?? [];
      expect(named.length).toBeGreaterThan(0);
      for (const name of named) expect(offered, message).toContain(name);
    }
  });

  it('past eight outputs, callId is a string checked on call, not an enum repeated in each tool', async () => {
    const calls = await Promise.all(
      Array.from({ length: 9 }, (_, index) => spooledCall(`call_${index}`, log)),
    );
    const context = new DispatchContext({ turnToolCalls: calls });
    const read = forgeArtifactTools(defaultArtifactKinds, context).get('artifact_read');
    const schema = z.toJSONSchema(read?.inputSchema ?? z.never()) as unknown as {
      properties: { callId: { type: string; enum?: string[] } };
    };
    expect(schema.properties.callId).toMatchObject({ type: 'string' });
    expect(schema.properties.callId.enum).toBeUndefined();
    expect(await invoke(context, 'artifact_read', { callId: 'call_8', end: 1 })).toBe(
      'lines 1–1 of 5000:\n1:INFO line 1\n',
    );
    const refused = read?.inputSchema.safeParse({ callId: 'call_9' });
    expect(refused?.error?.issues[0]?.message).toBe(
      `callId must be one of ${calls.map((call) => `"${call.id}"`).join(', ')}: the calls whose outputs were spooled, or their names (an artifact_* call cannot be queried itself)`,
    );
  });
});
