import { readdir, stat, truncate, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { StoredArtifactRecord } from 'spoolforge';
import { describe, expect, it } from 'vitest';
import { openStore } from './store-helpers.js';

describe('ArtifactStore damage and garbage', () => {
  it('skips damaged sidecars in listings, reports them clearly on get, and gc cleans them', async () => {
    const store = await openStore();
    const healthy = await store.put('fine\n');
    const garbled = await store.put('garbled\n');
    const cut = await store.put('x\n'.repeat(100_000));
    const sidecar = (record: StoredArtifactRecord) =>
      join(store.directory, 'objects', `${record.id}.msgpack`);
    await writeFile(sidecar(garbled), Buffer.from([0xc1, 0x00, 0xff]));
    // Cut inside the line index: the header still reads, so listings need not notice.
    await truncate(sidecar(cut), (await stat(sidecar(cut))).size - 3);

    expect((await store.list()).map((record) => record.id).sort()).toEqual(
      [healthy.id, cut.id].sort(),
    );
    expect(await store.info(cut.id)).toMatchObject({ lineCount: 100_000 });
    for (const damaged of [garbled, cut]) {
      const error = await store.get(damaged.id).catch((reason: unknown) => reason);
      expect(error).toMatchObject({
        code: 'E_ARTIFACT_DAMAGED',
        message: expect.stringMatching(/damaged/),
      });
    }

    const report = await store.gc({ graceMilliseconds: 0 });
    expect(report.orphans.sort()).toEqual([sidecar(garbled), store.dataFile(garbled.id)].sort());
    expect(await store.list()).toHaveLength(2);
  });

  it('gc removes orphans and dead temp files past the grace period, and nothing else', async () => {
    const store = await openStore();
    const kept = await store.put('kept\n');
    const objects = join(store.directory, 'objects');
    const temporary = join(store.directory, 'tmp');
    const orphanData = join(objects, `${'a'.repeat(22)}.data`);
    const orphanSidecar = join(objects, `${'b'.repeat(22)}.msgpack`);
    const liveTemporary = join(temporary, `${'c'.repeat(22)}.${process.pid}.data.partial`);
    const foreign = [join(objects, 'notes.txt'), join(objects, 'short.data'), join(temporary, 'x')];
    for (const path of [orphanData, orphanSidecar, liveTemporary, ...foreign]) {
      await writeFile(path, 'leftover');
    }

    const young = await store.gc();
    expect(young).toEqual({ expired: [], orphans: [], temporary: [], spoolDirectories: [] });

    const report = await store.gc({ graceMilliseconds: 0 });
    expect(report.orphans.sort()).toEqual([orphanData, orphanSidecar].sort());
    // Its writer (this process) is alive and the file is fresh: a put may be under way.
    expect(report.temporary).toEqual([]);
    expect((await readdir(temporary)).sort()).toEqual([
      `${'c'.repeat(22)}.${process.pid}.data.partial`,
      'x',
    ]);
    expect((await readdir(objects)).sort()).toEqual(
      [`${kept.id}.data`, `${kept.id}.msgpack`, 'notes.txt', 'short.data'].sort(),
    );

    // Untouched for two days, even a live pid's temp file is a leftover (its pid was reused).
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000);
    await utimes(liveTemporary, twoDaysAgo, twoDaysAgo);
    expect((await store.gc()).temporary).toEqual([liveTemporary]);
  });
});
