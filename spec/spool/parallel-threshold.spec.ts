import type { Stats } from 'node:fs';
import { availableParallelism } from 'node:os';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runsInParallel } from '../../src/spool/parallel-threshold.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

const gibibyte = 1024 * 1024 * 1024;
/** Only the size is read: a file of any size without writing one. */
const fileOf = (size: number) => ({ path: '/var/log/huge.log', stats: { size } as Stats });

describe.skipIf(availableParallelism() < 2)('runsInParallel', () => {
  it('threads a grep from 2 GiB and the index from 4 GiB', () => {
    vi.stubEnv('SPOOLFORGE_THREADS', '');
    expect(runsInParallel(fileOf(2 * gibibyte - 1), 'grep')).toBe(false);
    expect(runsInParallel(fileOf(2 * gibibyte), 'grep')).toBe(true);
    expect(runsInParallel(fileOf(4 * gibibyte - 1), 'index')).toBe(false);
    expect(runsInParallel(fileOf(4 * gibibyte), 'index')).toBe(true);
  });

  it('threads every scan from 64 MiB when SPOOLFORGE_THREADS asks for threads, none with 1', () => {
    vi.stubEnv('SPOOLFORGE_THREADS', '2');
    for (const scan of ['grep', 'index'] as const) {
      expect(runsInParallel(fileOf(64 * 1024 * 1024), scan)).toBe(true);
      expect(runsInParallel(fileOf(64 * 1024 * 1024 - 1), scan)).toBe(false);
    }
    vi.stubEnv('SPOOLFORGE_THREADS', '1');
    expect(runsInParallel(fileOf(64 * gibibyte), 'grep')).toBe(false);
  });
});
