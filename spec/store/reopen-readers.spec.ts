import {
  ArtifactStore,
  createArtifactHandler,
  HttpSpoolReader,
  MemorySpoolReader,
  openReader,
  SpooledArtifact,
  SpoolforgeError,
  spool,
} from 'spoolforge';
import { describe, expect, it } from 'vitest';
import { listen } from '../helpers/http-servers.js';
import { tempDirectory } from '../helpers/temp-files.js';

/** What `run` throws, or `undefined`. */
function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('reopening readers', () => {
  it('says memory and temp spools cannot be reopened, and how to make them so', async () => {
    const memory = new MemorySpoolReader('x\n');
    await using small = await spool('small\n');
    await using spilled = await spool('spilled\n'.repeat(100), {
      memoryThreshold: 16,
      tempDirectory: await tempDirectory(),
    });
    const errors = [memory, small.reader, spilled.reader].map((reader) =>
      thrownBy(() => reader.describe?.()),
    );
    for (const error of errors) {
      expect(SpoolforgeError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({
        code: 'E_NOT_REOPENABLE',
        message: expect.stringContaining('ArtifactStore'),
      });
    }
    expect((errors[2] as Error).message).toMatch(/temp spool/);
  });

  it('reopens a stored artifact from its descriptor, and refuses unknown kinds', async () => {
    const store = await ArtifactStore.open(await tempDirectory());
    const record = await store.put('first\nsecond\n');
    await using artifact = await store.get(record.id);
    const descriptor = artifact.reader.describe?.();
    expect(descriptor).toEqual({ kind: 'file', locator: store.dataFile(record.id) });

    const reader = openReader(JSON.parse(JSON.stringify(descriptor)));
    expect(new TextDecoder().decode(await reader.read(6, 6))).toBe('second');
    await reader.close?.();

    const unknown = thrownBy(() => openReader({ kind: 'carrier-pigeon', locator: 'coop 7' }));
    expect(unknown).toMatchObject({ code: 'E_INVALID_ARGUMENT' });
  });

  it('reopens an http reader from its descriptor: a stored artifact over the artifact handler', async () => {
    const store = await ArtifactStore.open(await tempDirectory());
    const text = Array.from(
      { length: 5_000 },
      (_, line) => `${line} ${line % 7 ? 'ok' : 'FAIL'}\n`,
    );
    const record = await store.put(text.join(''), { name: 'checks' });
    const origin = await listen(createArtifactHandler(store));
    const descriptor = new HttpSpoolReader(`${origin}/artifacts/${record.id}`).describe();
    const reopened = openReader(JSON.parse(JSON.stringify(descriptor)), { blockSize: 4096 });
    await using remote = new SpooledArtifact(reopened);
    await using local = await store.get('checks');
    expect(await remote.grep('FAIL', { maxCount: 5, context: 1 })).toEqual(
      await local.grep('FAIL', { maxCount: 5, context: 1 }),
    );
    expect(await remote.tail(3)).toEqual(await local.tail(3));
  });
});
