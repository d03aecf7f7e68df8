import { defaultThreadCount } from '../spool/thread-count.js';
import type { CachedFile } from './line-index-cache.js';

/** Below this, starting worker threads costs more than it saves. */
export const parallelMinimumBytes = 64 * 1024 * 1024;

/**
 * Whether a scan of `file` runs on worker threads: a regular file of at least 64 MiB on a
 * machine with more than one thread (`SPOOLFORGE_THREADS=1` turns it off).
 *
 * @example
 * ```ts
 * if (source.file && runsInParallel(source.file)) await parallelGrepScan(source.file.path, pattern, options, sink);
 * ```
 */
export function runsInParallel(file: CachedFile): boolean {
  return file.stats.size >= parallelMinimumBytes && defaultThreadCount() > 1;
}
