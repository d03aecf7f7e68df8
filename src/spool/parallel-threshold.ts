import type { CachedFile } from './line-index-cache.js';
import { configuredThreadCount, defaultThreadCount } from './thread-count.js';

/**
 * What a parallel scan does per byte: `grep` matches lines (more work per byte, so threads pay
 * off sooner), `index` only counts newlines (count, stat, a far `lines`).
 */
export type ParallelScan = 'grep' | 'index';

/** Below this, starting worker threads costs more than it saves, whatever the setting. */
export const parallelMinimumBytes = 64 * 1024 * 1024;

/**
 * Where threads start to win by default, measured on 2 cores (the common small machine) with
 * other work running: up to 1 GiB one thread was faster in every mode; at 4 GiB two threads won
 * for `grep -c` of a common literal and for `grep -n`, but not yet for `count`. (A grep that
 * prints many lines may still stay on one thread: see the CLI's grep command.)
 */
const defaultMinimumBytes: Record<ParallelScan, number> = {
  grep: 2 * 1024 * 1024 * 1024,
  index: 4 * 1024 * 1024 * 1024,
};

/**
 * Whether a `scan` of `file` runs on worker threads: on a machine with more than one thread, a
 * regular file from 2 GiB (`grep`) or 4 GiB (`index`) on, or from 64 MiB when
 * `SPOOLFORGE_THREADS` asks for more than one thread (`SPOOLFORGE_THREADS=1` turns it off).
 *
 * @example
 * ```ts
 * const file = { path, stats: await stat(path) };
 * if (runsInParallel(file, 'grep')) await parallelGrepScan(path, 'ERROR', {}, sink);
 * ```
 */
export function runsInParallel(file: CachedFile, scan: ParallelScan): boolean {
  if (defaultThreadCount() <= 1) return false;
  const minimum = configuredThreadCount() ? parallelMinimumBytes : defaultMinimumBytes[scan];
  return file.stats.size >= minimum;
}
