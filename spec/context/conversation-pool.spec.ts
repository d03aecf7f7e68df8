import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { appendFile, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  ArtifactStore,
  ConversationPool,
  type PooledConversation,
  SpoolforgeError,
} from 'spoolforge';
import { spoolforgeToolSet } from 'spoolforge/ai-sdk';
import { describe, expect, it } from 'vitest';
import { fetchLogs, nextRequest, scriptedTurn } from '../helpers/pooled-turns.js';
import { tempDirectory } from '../helpers/temp-files.js';

const run = promisify(execFile);
const distEntry = fileURLToPath(new URL('../../dist/index.js', import.meta.url));
const zodEntry = createRequire(import.meta.url).resolve('zod');
const openDescriptors = () => readdirSync('/proc/self/fd').length;

async function openStore() {
  return ArtifactStore.open(join(await tempDirectory(), 'store'));
}

/** The error `promise` rejects with. */
async function failure(promise: Promise<unknown>): Promise<SpoolforgeError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!SpoolforgeError.isInstance(error)) throw new Error(`expected a SpoolforgeError: ${error}`);
  return error;
}

describe('ConversationPool', () => {
  it('hibernating and reviving a conversation leaves its next request as it was, turn after turn', async () => {
    const store = await openStore();
    await using pool = new ConversationPool({ store, tools: [fetchLogs] });
    let compactions = 0;
    for (let turn = 0; turn < 40; turn++) {
      await pool.use('ticket-1', (conversation) => scriptedTurn(conversation, turn));
      const before = await pool.use('ticket-1', nextRequest);
      expect(await pool.hibernate('ticket-1')).toBe(true);
      expect(pool.stats).toEqual({ live: 0, busy: 0, hibernated: 1 });
      const after = await pool.use('ticket-1', nextRequest);
      expect(after).toBe(before);
      compactions = await pool.use('ticket-1', async ({ log }) => (log.compaction ? 1 : 0));
    }
    expect(compactions).toBe(1);
    // The revived session answers artifact_* calls on an output stored before hibernating.
    const grep = await pool.use('ticket-1', async ({ session, log }) => {
      expect(log.history().at(-1)?.content).toBe('Turn 39: the payment gateway timed out.');
      const dispatch = session.dispatch();
      dispatch.ack();
      const callId = session.toolCalls.at(-1)?.id ?? '';
      expect(callId).toBe('call_38');
      return session.run(
        [{ id: 'g', name: 'artifact_grep', arguments: { callId, pattern: 'request=7 ' } }],
        dispatch,
      );
    });
    expect(grep[0]?.isError).toBe(false);
    expect(grep[0]?.content[0]).toMatchObject({ text: expect.stringContaining('turn=38') });
  });

  it('a revived session serves the AI SDK tool set: the forged tools query an output stored before', async () => {
    const store = await openStore();
    await using pool = new ConversationPool({ store, tools: [fetchLogs] });
    await pool.use('ai-sdk', (conversation) => scriptedTurn(conversation, 0));
    await pool.hibernate('ai-sdk');
    const text = await pool.use('ai-sdk', async ({ session }) => {
      await using tools = spoolforgeToolSet({ session });
      const { activeTools } = tools.prepareStep({ stepNumber: 0 });
      expect(activeTools).toEqual(expect.arrayContaining(['fetch_logs', 'artifact_grep']));
      const output = await tools.tools.artifact_grep?.execute?.(
        { callId: 'call_0', pattern: 'request=42 ' },
        { toolCallId: 'g1', messages: [], context: undefined },
      );
      tools.onStepEnd();
      return JSON.stringify(output);
    });
    expect(text).toContain('turn=0 request=42 GET');
  });

  it('a pool of a new process offers the stored outputs of a conversation an earlier one recorded', async () => {
    const store = await openStore();
    const earlier = new ConversationPool({ store, tools: [fetchLogs] });
    await earlier.use('restart', (conversation) => scriptedTurn(conversation, 0));
    const before = await earlier.use('restart', nextRequest);
    await earlier.close();
    await using later = new ConversationPool({ store, tools: [fetchLogs] });
    expect(await later.use('restart', nextRequest)).toBe(before);
  });

  it('an output gone from the store is not offered after a revival: its handle names the cache', async () => {
    const store = await openStore();
    await using pool = new ConversationPool({ store, tools: [fetchLogs] });
    await pool.use('gone', (conversation) => scriptedTurn(conversation, 0));
    const ref = await pool.use('gone', async ({ log }) => log.toolMessage('call_0')?.ref);
    await pool.hibernate('gone');
    await store.delete(ref ?? '');
    await pool.use('gone', async ({ log, session }) => {
      expect(session.toolCalls).toHaveLength(0);
      expect(log.toolMessage('call_0')?.content).toContain(`tool_output_cache {"ref":"${ref}"}`);
    });
  });

  it('hibernates the least recently used idle conversations past maxLive, and idle ones after idleTimeout', async () => {
    const store = await openStore();
    const before = openDescriptors();
    await using pool = new ConversationPool({ store, tools: [fetchLogs], maxLive: 3 });
    for (let index = 0; index < 10; index++) {
      await pool.use(`c${index}`, (conversation) => scriptedTurn(conversation, 0));
    }
    expect(pool.stats).toEqual({ live: 3, busy: 0, hibernated: 7 });
    await pool.close();
    expect(openDescriptors()).toBeLessThanOrEqual(before);

    await using timed = new ConversationPool({ store, tools: [fetchLogs], idleTimeout: 20 });
    await timed.use('c0', async ({ log }) => expect(log.nextSeq).toBe(4));
    expect(timed.stats.live).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(timed.stats).toEqual({ live: 0, busy: 0, hibernated: 1 });
  });

  it('300 conversations with stored outputs hold the pooled files at most, none per idle one', async () => {
    const store = await openStore();
    const before = openDescriptors();
    const pool = new ConversationPool({ store, tools: [fetchLogs], maxLive: 50 });
    for (let index = 0; index < 300; index++) {
      await pool.use(`c${index}`, (conversation) => scriptedTurn(conversation, 0));
    }
    // Live conversations' logs and outputs are pooled files: at most 64 open in the process.
    expect(openDescriptors() - before).toBeLessThanOrEqual(64);
    expect(pool.stats).toMatchObject({ live: 50, hibernated: 250 });
    await pool.close();
    expect(openDescriptors()).toBeLessThanOrEqual(before);
  });

  it('a process under ulimit -n 256 runs 300 conversations with stored outputs, revived once', async () => {
    const directory = await tempDirectory();
    const script = join(directory, 'many-conversations.mjs');
    await writeFile(
      script,
      `import { ArtifactStore, ConversationPool, defineTool } from ${JSON.stringify(distEntry)};
import { z } from ${JSON.stringify(zodEntry)};
const store = await ArtifactStore.open(process.argv[2]);
const report = defineTool({
  name: 'report',
  description: 'A long report.',
  inputSchema: z.object({ round: z.number() }),
  handler: ({ round }) => 'report line ' + round + '\\n'.repeat(1) + 'x'.repeat(4_000),
});
const pool = new ConversationPool({ store, tools: [report], maxLive: 200 });
for (let round = 0; round < 2; round++) {
  for (let index = 0; index < 300; index++) {
    await pool.use('c' + index, async ({ log, session }) => {
      if (session.toolCalls.length !== round) throw new Error('outputs not offered again');
      const call = { id: 'call_' + round, name: 'report', arguments: JSON.stringify({ round }) };
      await log.append({ role: 'assistant', content: '', toolCalls: [call] });
      const dispatch = session.dispatch();
      dispatch.ack();
      await log.appendToolOutcomes(await session.run([call], dispatch));
    });
  }
}
console.log(JSON.stringify(pool.stats));
await pool.close();
`,
    );
    const { stdout } = await run('sh', [
      '-c',
      'ulimit -n 256 && exec "$0" "$1" "$2"',
      process.execPath,
      script,
      join(directory, 'store'),
    ]);
    expect(JSON.parse(stdout)).toEqual({ live: 200, busy: 0, hibernated: 100 });
  }, 120_000);

  it('messages sent to a conversation while it revives run once it is back, one at a time, in order', async () => {
    const store = await openStore();
    await using pool = new ConversationPool({ store, tools: [fetchLogs] });
    await pool.use('busy', (conversation) => scriptedTurn(conversation, 0));
    await pool.hibernate('busy');
    const seen = new Set<PooledConversation>();
    let running = 0;
    const messages = Array.from({ length: 8 }, (_, index) =>
      pool.use('busy', async (conversation) => {
        seen.add(conversation);
        running += 1;
        expect(running).toBe(1);
        await conversation.log.append({ role: 'user', content: `message ${index}` });
        running -= 1;
        return conversation.log.nextSeq;
      }),
    );
    expect(await Promise.all(messages)).toEqual([5, 6, 7, 8, 9, 10, 11, 12]);
    expect(seen.size).toBe(1);
    const contents = await pool.use('busy', async ({ log }) =>
      log
        .history()
        .slice(-8)
        .map((message) => message.content),
    );
    expect(contents).toEqual(Array.from({ length: 8 }, (_, index) => `message ${index}`));
  });

  it('refuses uses past maxPending with E_BUSY', async () => {
    const store = await openStore();
    await using pool = new ConversationPool({ store, maxPending: 2 });
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const first = pool.use('c', () => held);
    const second = pool.use('c', async () => 'second');
    expect((await failure(pool.use('c', async () => 'third'))).code).toBe('E_BUSY');
    release();
    await first;
    expect(await second).toBe('second');
  });

  it('a log deleted or damaged while hibernated fails its revival clearly, and the pool goes on', async () => {
    const store = await openStore();
    await using pool = new ConversationPool({ store, tools: [fetchLogs] });
    for (const id of ['deleted', 'damaged', 'fine']) {
      await pool.use(id, (conversation) => scriptedTurn(conversation, 0));
      await pool.hibernate(id);
    }
    const logOf = (id: string) => join(store.directory, 'conversations', `${id}.jsonl`);
    await rm(logOf('deleted'));
    const intact = await readFile(logOf('damaged'));
    await appendFile(logOf('damaged'), 'not an event\n{"type":"message"}\n');

    const deleted = await failure(pool.use('deleted', async () => 'revived'));
    expect(deleted.code).toBe('E_LOG_DAMAGED');
    expect(deleted.message).toMatch(
      /^Cannot revive conversation deleted: its log holds 0 events, 4/,
    );
    const damaged = await failure(pool.use('damaged', async () => 'revived'));
    expect(damaged.code).toBe('E_LOG_DAMAGED');
    expect(damaged.message).toMatch(
      /^Cannot revive conversation damaged: .*damaged\.jsonl: the line at byte \d+ is not JSON/,
    );
    // Refused again, not started over empty; the other conversations are untouched.
    expect((await failure(pool.use('deleted', async () => 'revived'))).code).toBe('E_LOG_DAMAGED');
    expect(pool.stats).toEqual({ live: 0, busy: 0, hibernated: 3 });
    expect(await pool.use('fine', async ({ log }) => log.nextSeq)).toBe(4);

    // Repaired, it revives.
    await writeFile(logOf('damaged'), intact);
    expect(await pool.use('damaged', async ({ log }) => log.nextSeq)).toBe(4);
  });

  it('close waits for running uses, closes every conversation and refuses new uses', async () => {
    const store = await openStore();
    const before = openDescriptors();
    const pool = new ConversationPool({ store, tools: [fetchLogs] });
    await Promise.all(
      ['a', 'b', 'c'].map((id) => pool.use(id, (conversation) => scriptedTurn(conversation, 0))),
    );
    const running = pool.use('a', async ({ log }) => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      return log.append({ role: 'user', content: 'late' });
    });
    await pool.close();
    expect((await running)[0]?.seq).toBe(4);
    expect(pool.stats).toEqual({ live: 0, busy: 0, hibernated: 0 });
    expect(openDescriptors()).toBeLessThanOrEqual(before);
    const closed = await failure(pool.use('a', async () => 'x'));
    expect(closed.code).toBe('E_IO');
  });
});
