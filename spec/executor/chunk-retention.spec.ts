import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tempDirectory } from '../helpers/temp-files.js';

const run = promisify(execFile);

/**
 * A source that allocates each 1 MiB chunk afresh and, before making the next, runs a full GC
 * and notes whether the chunk before is still alive. It is a plain iterator, so nothing of its
 * own holds a chunk: what keeps one alive is the code spooling it.
 */
const probe = `
  const alive = [];
  function probedSource(count) {
    let made = 0;
    let previous;
    return {
      [Symbol.asyncIterator]() { return this; },
      async next() {
        if (previous) {
          await new Promise((resolve) => setImmediate(resolve)); // a WeakRef holds for its job
          globalThis.gc();
          await new Promise((resolve) => setTimeout(resolve, 10));
          globalThis.gc();
          alive.push(previous.deref() !== undefined);
        }
        if (made === count) return { done: true, value: undefined };
        made++;
        const chunk = Buffer.alloc(1024 * 1024, 97);
        previous = new WeakRef(chunk);
        return { done: false, value: chunk };
      },
    };
  }
`;

/** How many chunks were still alive when the source was asked for the next (6 asks a source). */
async function chunksKeptAlive(spoolIt: string): Promise<number> {
  const dist = new URL('../../dist/index.js', import.meta.url).href;
  const zod = pathToFileURL(createRequire(import.meta.url).resolve('zod')).href;
  const script = `
    import * as spoolforge from ${JSON.stringify(dist)};
    import { z } from ${JSON.stringify(zod)};
    const directory = ${JSON.stringify(await tempDirectory())};
    ${probe}
    ${spoolIt}
    console.log(alive.filter(Boolean).length);
  `;
  const { stdout } = await run(process.execPath, [
    '--expose-gc',
    '--input-type=module',
    '-e',
    script,
  ]);
  return Number(stdout.trim());
}

const inSession = (options: string) => `
  const produce = spoolforge.defineTool({
    name: 'produce_log',
    description: 'Streams a log.',
    inputSchema: z.object({}),
    handler: () => probedSource(6),
  });
  const session = new spoolforge.ToolSession({ tools: [produce], ${options} });
  const dispatch = session.dispatch();
  dispatch.ack();
  const [outcome] = await session.run([{ id: 'call_1', name: 'produce_log', arguments: {} }], dispatch);
  if (!outcome.content[0].text.includes('6.0 MiB')) throw new Error(outcome.content[0].text);
  await session[Symbol.asyncDispose]();
`;

// A chunk a stream's consumer still holds while the stream allocates the next survives the
// young-generation GC that allocation triggers, and lingers until a full GC: tens of MiB of
// dead chunks while a multi-GB output spools.
describe('spooling a stream of fresh chunks', () => {
  it('holds no chunk once written, with or without a signal', async () => {
    const spoolBoth = `
      for (const signal of [undefined, new AbortController().signal]) {
        const artifact = await spoolforge.spool(probedSource(6), { signal, tempDirectory: directory });
        if ((await artifact.byteLength()) !== 6 * 1024 * 1024) throw new Error('bytes lost');
        await artifact.close();
      }
    `;
    expect(await chunksKeptAlive(spoolBoth)).toBe(0);
  });

  it('holds none in a store', async () => {
    const put = `
      const store = await spoolforge.ArtifactStore.open(directory);
      const record = await store.put(probedSource(6), { signal: new AbortController().signal });
      if (record.byteLength !== 6 * 1024 * 1024) throw new Error('bytes lost');
    `;
    expect(await chunksKeptAlive(put)).toBe(0);
  });

  it('holds none in a ToolSession, with or without an event listener', async () => {
    expect(await chunksKeptAlive(inSession(''))).toBe(0);
    expect(await chunksKeptAlive(inSession('onEvent: () => {}'))).toBe(0);
  });
});
