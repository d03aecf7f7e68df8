import type { CachedFile } from './line-index-cache.js';
import { configuredThreadCount, defaultThreadCount } from './thread-count.js';

/**
 * What a parallel scan does per byte: `grep` matches lines and prints a count or names (more
 * work per byte, so threads pay off sooner), `grep-lines` matches and prints the lines, `index`
 * only counts newlines (count, stat, a far `lines`).
 */
export type ParallelScan = 'grep' | 'grep-lines' | 'index';

/** Below this, starting worker threads costs more than it saves, whatever the setting. */
export const parallelMinimumBytes = 64 * 1024 * 1024;

/**
 * Where threads start to win by default, measured on 2 cores (the common small machine) with
 * other work running: up to 1 GiB one thread was faster in every mode; at 4 GiB two threads won
 * for `grep -c` of a common literal and for `grep -n`, but not yet for `count`. Printed lines
 * stay on one thread: output is written in file order, so a later part waits once its share of
 * output fills its credit, and the copies and messages cost more than the second core gives
 * (4 GiB log, 2-core EPYC: `grep -v INFO`, 2.2 GB out, 6.9-7.6 s on one thread against
 * 10.2-11.9 s on two; `grep ERROR`, 174 MB out, 1.36 s against 1.88 s; a rare `-n -C 3`
 * lost 8%, 0.85 s against 0.79 s).
 */
const defaultMinimumBytes: Record<ParallelScan, number> = {
  grep: 2 * 1024 * 1024 * 1024,
  'grep-lines': Number.POSITIVE_INFINITY,
  index: 4 * 1024 * 1024 * 1024,
};

/**
 * Whether a `scan` of `file` runs on worker threads: on a machine with more than one thread, a
 * regular file from 2 GiB (`grep`) or 4 GiB (`index`) on, never by default for `grep-lines`,
 * or from 64 MiB when `SPOOLFORGE_THREADS` asks for more than one thread
 * (`SPOOLFORGE_THREADS=1` turns it off).
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
