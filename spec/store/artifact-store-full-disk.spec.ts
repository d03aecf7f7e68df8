import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ArtifactStore, SpoolforgeError } from 'spoolforge';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** A real full disk: a 2 MiB tmpfs, which only root may mount. */
const mountPoint = await mkdtemp(join(tmpdir(), 'spoolforge-full-disk-'));
const mounted = (() => {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', mountPoint], {
      stdio: 'ignore',
    });
    return true;
  } catch {
    return false;
  }
})();

/** 4 MiB of lines, in 64 KiB chunks, as a tool's output would stream. */
async function* fourMebibytes(): AsyncGenerator<string> {
  const chunk = `${'x'.repeat(1023)}\n`.repeat(64);
  for (let sent = 0; sent < 64; sent++) yield chunk;
}

describe('ArtifactStore on a full disk', () => {
  let store: ArtifactStore;
  beforeAll(async () => {
    if (mounted) store = await ArtifactStore.open(join(mountPoint, 'store'));
  });
  afterAll(async () => {
    if (mounted) execFileSync('umount', [mountPoint]);
    await rm(mountPoint, { recursive: true, force: true });
  });

  it.skipIf(!mounted)(
    'rejects a put past the free space with E_IO whose cause is ENOSPC, leaving nothing half-written (needs root to mount a tmpfs)',
    async () => {
      const error = await store.put(fourMebibytes(), { name: 'too big' }).then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(SpoolforgeError.isInstance(error)).toBe(true);
      expect((error as SpoolforgeError).code).toBe('E_IO');
      expect(((error as SpoolforgeError).cause as NodeJS.ErrnoException).code).toBe('ENOSPC');
      expect(await store.list()).toEqual([]);
      expect(await store.info('too big')).toBeUndefined();
      // Neither the temp file nor a data file without its sidecar stays to hold the space.
      const left = await readdir(store.directory, { recursive: true });
      expect(left.sort()).toEqual(['objects', 'tmp']);
      // The space is back: a small put fits.
      const record = await store.put('fits\n', { name: 'small' });
      expect((await store.list()).map((r) => r.id)).toEqual([record.id]);
    },
  );
});
