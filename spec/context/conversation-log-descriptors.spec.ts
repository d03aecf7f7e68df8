import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ArtifactStore, ConversationLog, defineTool, ToolSession } from 'spoolforge';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tempDirectory } from '../helpers/temp-files.js';

const run = promisify(execFile);
const distEntry = fileURLToPath(new URL('../../dist/index.js', import.meta.url));

/** A tool whose every output (~20 KiB) is over the inline threshold: stored, then reopened. */
const report = defineTool({
  name: 'report',
  description: 'A long report.',
  inputSchema: z.object({ n: z.number() }),
  handler: async ({ n }) =>
    Array.from({ length: 400 }, (_, line) => `report ${n} line ${line} ${'x'.repeat(30)}\n`).join(
      '',
    ),
});

const openDescriptors = () => readdirSync('/proc/self/fd').length;

describe('open conversation logs and their stored outputs hold bounded descriptors', () => {
  it('200 idle conversations with 4 stored outputs each hold at most 2 descriptors apiece', async () => {
    const store = await ArtifactStore.open(join(await tempDirectory(), 'store'));
    const conversations = 200;
    const before = openDescriptors();
    const open: { log: ConversationLog; session: ToolSession }[] = [];
    for (let index = 0; index < conversations; index++) {
      const log = await ConversationLog.open({ store, conversationId: `c${index}` });
      const session = new ToolSession({ tools: [report], store });
      const dispatch = session.dispatch();
      dispatch.ack();
      const calls = [0, 1, 2, 3].map((n) => ({
        id: `call_${n}`,
        name: 'report',
        arguments: { n },
      }));
      await log.appendToolOutcomes(await session.run(calls, dispatch));
      open.push({ log, session });
    }
    const held = openDescriptors() - before;
    expect(held).toBeLessThanOrEqual(2 * conversations);
    // What was closed while idle opens again when used: the first conversation answers and
    // appends as it did.
    const first = open[0] as (typeof open)[number];
    const dispatch = first.session.dispatch();
    dispatch.ack();
    const [grep] = await first.session.run(
      [{ id: 'g', name: 'artifact_grep', arguments: { callId: 'call_2', pattern: 'line 399 ' } }],
      dispatch,
    );
    expect(grep?.isError).toBeFalsy();
    expect(grep?.content[0]).toMatchObject({ text: expect.stringContaining('report 2 line 399') });
    await first.log.append({ role: 'assistant', content: 'Read it.' });
    for (const { log, session } of open) {
      await session.close();
      await log.close();
    }
    const reopened = await ConversationLog.open({ store, conversationId: 'c0' });
    expect(reopened.history().map((message) => message.role)).toEqual([
      ...Array(4).fill('tool'),
      'assistant',
    ]);
    await reopened.close();
    expect(openDescriptors()).toBeLessThanOrEqual(before);
  });

  it('a process under ulimit -n 256 opens 300 conversations and appends to each', async () => {
    const directory = await tempDirectory();
    const script = join(directory, 'many-logs.mjs');
    await writeFile(
      script,
      `import { ArtifactStore, ConversationLog } from ${JSON.stringify(distEntry)};
const store = await ArtifactStore.open(process.argv[2]);
const logs = [];
for (let index = 0; index < 300; index++) {
  const log = await ConversationLog.open({ store, conversationId: 'c' + index });
  // Over maxResultBytes: put into the store, a stored output of the conversation.
  await log.append({ role: 'user', content: 'a long paste\\n'.repeat(6_000) });
  logs.push(log);
}
for (const log of logs) await log.append({ role: 'assistant', content: 'noted' });
for (const log of logs) await log.close();
console.log('appended to', logs.length, 'conversations');
`,
    );
    const { stdout } = await run('bash', [
      '-c',
      'ulimit -n 256 && exec "$0" "$1" "$2"',
      process.execPath,
      script,
      join(directory, 'store'),
    ]);
    expect(stdout.trim()).toBe('appended to 300 conversations');
  });
});
