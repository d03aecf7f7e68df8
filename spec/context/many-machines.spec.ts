import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { ConversationMessage } from 'spoolforge';
import { describe, expect, it } from 'vitest';
import { usePostgres } from '../helpers/postgres-server.js';
import { freshPrefix, useS3Server } from '../store/s3-store-helpers.js';

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
const run = promisify(execFile);
const s3 = useS3Server();
const postgres = usePostgres('many-machines');

/** A build log of about 3 MiB with one failing test near its end. */
function buildLog(): string {
  const lines = Array.from(
    { length: 40_000 },
    (_, index) => `2026-11-24T10:${String(index % 60).padStart(2, '0')} INFO step ${index} ok`,
  );
  lines.splice(39_990, 0, 'FAIL spec/payments.spec.ts: expected 200, got 503');
  return `${lines.join('\n')}\n`;
}

/**
 * One machine: a Node process with its own S3 client and its own PostgreSQL pool that opens
 * conversation `id` on the shared bucket prefix and database, runs `body` with `log` and `store`
 * in scope, and prints what `body` returns as JSON.
 */
async function machine(id: string, prefix: string, body: string): Promise<unknown> {
  const server = s3();
  const script = `
    import { ConversationLog } from ${JSON.stringify(`${dist}index.js`)};
    import { PostgresConversationLogBackend } from ${JSON.stringify(`${dist}context/postgres/index.js`)};
    import { openS3ArtifactStore } from ${JSON.stringify(`${dist}store/s3/index.js`)};
    const [s3, database, conversationId, prefix] = JSON.parse(process.argv[1]);
    const buildLog = (${buildLog.toString()})();
    const store = await openS3ArtifactStore({ bucket: s3.bucket, prefix, clientConfig: s3.clientConfig });
    const backend = await PostgresConversationLogBackend.open({ connection: database, conversationId });
    const log = await ConversationLog.open({ store, backend });
    const result = await (async () => { ${body} })();
    await log.close();
    console.log(JSON.stringify(result ?? null));
  `;
  const { stdout } = await run(process.execPath, [
    '--input-type=module',
    '-e',
    script,
    JSON.stringify([
      { bucket: server.bucket, clientConfig: server.clientConfig },
      postgres.server.config,
      id,
      prefix,
    ]),
  ]);
  return JSON.parse(stdout);
}

describe.skipIf(!postgres.available)('one agent on two machines: a bucket and a database', () => {
  it('resumes on machine B the conversation machine A wrote, its tool output read from the bucket', async () => {
    const prefix = freshPrefix();
    // Machine A: the user asks, a tool returns a 3 MiB build log, which the log keeps in the
    // bucket by id; the events go to PostgreSQL.
    const written = (await machine(
      'ci-4812',
      prefix,
      `
        await log.append({ role: 'user', content: 'Why did build 4812 fail?' });
        await log.append({ role: 'assistant', content: 'Reading the build log.' });
        await log.append({ role: 'tool', toolCallId: 'call_1', toolName: 'build_log', content: buildLog });
        return log.history();
      `,
    )) as ConversationMessage[];
    const tool = written.find((message) => message.role === 'tool') as ConversationMessage & {
      ref?: string;
    };
    expect(tool.ref).toMatch(/^[\w-]+$/);
    expect(Buffer.byteLength(tool.content)).toBeLessThan(64 * 1024);

    // Machine B: the same conversation, the same history; the full output is in the bucket,
    // and the cache tools grep it there.
    const resumed = (await machine(
      'ci-4812',
      prefix,
      `
        const { ToolSession, toolOutputCacheTools } = await import(${JSON.stringify(`${dist}index.js`)});
        const history = log.history();
        const ref = history.find((message) => message.role === 'tool').ref;
        const stored = await store.info(ref);
        const artifact = await store.get(ref);
        const tail = (await artifact.tail(2)).map((line) => line.text);
        await artifact.close();
        const session = new ToolSession({ tools: toolOutputCacheTools(log) });
        const dispatch = session.dispatch();
        dispatch.ack();
        const [found] = await session.run(
          [{ id: 'b1', name: 'tool_output_cache_grep', arguments: { ref, pattern: '^FAIL' } }],
          dispatch,
        );
        await session.close();
        await log.append({ role: 'assistant', content: 'spec/payments.spec.ts got a 503.' });
        return { history, byteLength: stored.byteLength, tail, grep: found.content[0].text };
      `,
    )) as { history: ConversationMessage[]; byteLength: number; tail: string[]; grep: string };
    expect(resumed.history).toEqual(written);
    expect(resumed.byteLength).toBe(Buffer.byteLength(buildLog()));
    expect(resumed.tail).toEqual(buildLog().trimEnd().split('\n').slice(-2));
    expect(resumed.grep).toContain(':FAIL spec/payments.spec.ts: expected 200, got 503');

    // Back on machine A: B's answer is there.
    const final = (await machine(
      'ci-4812',
      prefix,
      'return log.history();',
    )) as ConversationMessage[];
    expect(final.at(-1)).toEqual({
      role: 'assistant',
      content: 'spec/payments.spec.ts got a 503.',
    });
  }, 120_000);
});
