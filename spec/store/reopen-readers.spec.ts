import { ArtifactStore, MemorySpoolReader, openReader, SpoolforgeError, spool } from 'spoolforge';
import { describe, expect, it } from 'vitest';
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
});
