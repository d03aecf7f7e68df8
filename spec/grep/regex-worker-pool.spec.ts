import { createReadStream, readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { defineTool, SpoolforgeError, spool, ToolSession } from 'spoolforge';
import { RegexLineMatcher, RegexWorkerPool, regexWorkerPool } from 'spoolforge/engine';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { tempFile } from '../helpers/temp-files.js';
import { connectFileServer } from '../mcp/file-server/file-server-helpers.js';

/** Threads of this process: the main thread, V8's and libuv's, one per worker thread. */
const threads = () => readdirSync('/proc/self/task').length;

/** Waits until the pool's threads have all gone or settled (a terminated worker ends soon). */
async function settledThreads(): Promise<number> {
  for (let tries = 0; tries < 100; tries++) {
    const before = threads();
    await new Promise((resolve) => setTimeout(resolve, 20));
    if (threads() === before) return before - regexWorkerPool.stats.live;
  }
  throw new Error('threads did not settle');
}

describe('the regex worker pool', () => {
  it('runs 40 concurrent catastrophic artifact_grep calls in at most 2 threads; the rest read E_BUSY', async () => {
    const path = await tempFile(`${'INFO ok\n'.repeat(500)}${'a'.repeat(40)}b\n`);
    const fetchLog = defineTool({
      name: 'fetch_log',
      description: 'Returns a log file.',
      inputSchema: z.object({}),
      handler: async () => createReadStream(path),
    });
    await using session = new ToolSession({ tools: [fetchLog] });
    const first = session.dispatch();
    first.ack();
    await session.run([{ id: 'call_1', name: 'fetch_log', arguments: {} }], first);
    const second = session.dispatch();
    second.ack();
    const baseline = await settledThreads();
    let most = 0;
    let mostLive = 0;
    const sampler = setInterval(() => {
      most = Math.max(most, threads() - baseline);
      mostLive = Math.max(mostLive, regexWorkerPool.stats.live);
    }, 5);
    const calls = Array.from({ length: 40 }, (_, index) => ({
      id: `grep_${index}`,
      name: 'artifact_grep',
      arguments: { callId: 'call_1', pattern: '(a+)+\\b$' },
    }));
    const results = await session.run(calls, second).finally(() => clearInterval(sampler));
    const texts = results.map((result) => {
      const [content] = result?.content ?? [];
      return content?.type === 'text' ? content.text : '';
    });
    expect(mostLive).toBeLessThanOrEqual(2);
    expect(most).toBeLessThanOrEqual(2);
    const full = texts.filter((text) => /^Error \(E_BUSY\): .* 8 waiting\)/.test(text));
    expect(full).toHaveLength(30);
    expect(full[0]).toBe(
      'Error (E_BUSY): Regex search is busy (2 running, 8 waiting): retry later, or search a fixed string (fixed: true)',
    );
    // The two that ran hit their time budget; the queued ones spent theirs waiting.
    for (const text of texts) expect(text).toMatch(/^Error \((E_BUSY|E_REGEX_TIMEOUT)\)/);
    expect(texts.filter((text) => text.startsWith('Error (E_REGEX_TIMEOUT)'))).toHaveLength(2);
  });

  it("gives mcp serve's file_grep the readable E_BUSY while the threads are full; a fixed string still runs", async () => {
    const path = await tempFile(`INFO ok\n${'a'.repeat(40)}b\n`);
    const server = await connectFileServer({ roots: [dirname(path)] });
    await using artifact = await spool(`${'a'.repeat(40)}b\n`);
    // Greps from code wait their turn: 2 run and 8 wait until their 2 s budget runs out.
    const others = Array.from({ length: 10 }, () =>
      artifact.grep('(a+)+\\b$', { timeout: 2_000 }).catch((error: unknown) => error),
    );
    await vi.waitFor(() => expect(regexWorkerPool.stats.waiting).toBe(8), { timeout: 5_000 });
    expect(await server.error('file_grep', { path, pattern: '(a+)+\\b$' })).toBe(
      'Error (E_BUSY): Regex search is busy (2 running, 8 waiting): retry later, or search a fixed string (fixed: true)',
    );
    expect(await server.text('file_grep', { path, pattern: 'INFO', fixed: true })).toContain(
      '1:INFO ok',
    );
    await Promise.all(others);
  });

  it('reuses one warm worker for sequential greps of different patterns', async () => {
    await using artifact = await spool('x\nab\naab\nERROR 42\n');
    // `\b` keeps both from the line automaton: they run in the pool's workers.
    const first = await artifact.grep('\\ba+b$');
    const created = regexWorkerPool.stats.created;
    const second = await artifact.grep('^ERROR \\d+\\b$');
    expect(first.lines.map((line) => line.lineNumber)).toEqual([1, 2]);
    expect(second.lines.map((line) => line.text)).toEqual(['ERROR 42']);
    expect(regexWorkerPool.stats.created).toBe(created);
    expect(regexWorkerPool.stats.live).toBeGreaterThanOrEqual(1);
  });

  it('keeps the worker warm after a grep that stopped at maxCount with a block in flight', async () => {
    // 1 MiB blocks: the second is in the worker when the first block's match ends the scan.
    await using artifact = await spool('ab\n'.repeat(1_500_000));
    await artifact.grep('\\ba+b$', { maxCount: 1 });
    const created = regexWorkerPool.stats.created;
    const { matchCount } = await artifact.grep('^a+b\\b', { maxCount: 1 });
    expect(matchCount).toBe(1);
    expect(regexWorkerPool.stats.created).toBe(created);
  });

  it('ends an idle worker after idleMs, and the next scan starts a fresh one', async () => {
    const pool = new RegexWorkerPool({ idleMs: 50 });
    const match = async (regex: RegExp) => {
      const matcher = new RegexLineMatcher(regex, { pool });
      try {
        return Array.from(await matcher.matchingLines(Buffer.from('x\nab\n')));
      } finally {
        await matcher.dispose();
      }
    };
    expect(await match(/a+b$/s)).toEqual([2]);
    expect(pool.stats).toMatchObject({ live: 1, created: 1, running: 0 });
    await vi.waitFor(() => expect(pool.stats.live).toBe(0), { timeout: 5_000 });
    expect(await match(/^x/s)).toEqual([0]);
    expect(pool.stats).toMatchObject({ live: 1, created: 2 });
  });

  it('serves the next grep correctly after a timed-out one terminated its worker', async () => {
    await using stuck = await spool(`${'a'.repeat(40)}b\n`);
    const error = await stuck
      .grep('(a+)+\\b$', { timeout: 200 })
      .catch((caught: unknown) => caught);
    expect(SpoolforgeError.isInstance(error) && error.code).toBe('E_REGEX_TIMEOUT');
    await using artifact = await spool('x\nab\naab\n');
    const { lines } = await artifact.grep('a+b$', { timeout: 5_000 });
    expect(lines.map((line) => line.lineNumber)).toEqual([1, 2]);
  });
});
