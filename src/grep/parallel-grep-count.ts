import type { PatternOptions } from './compile-matcher.js';
import { parallelGrepScan } from './parallel-grep-scan.js';

/**
 * Options for {@link parallelGrepCount}: grep's pattern flags, `invert`, and the threads.
 */
export interface ParallelGrepCountOptions extends Pick<PatternOptions, 'fixed' | 'ignoreCase'> {
  invert?: boolean;
  /**
   * Threads, one per line-aligned part (the first on the calling thread, the others on worker
   * threads). Default `defaultThreadCount()`.
   */
  threads?: number;
  signal?: AbortSignal;
}

/**
 * `grep -c` over a file by threads (the calling one and workers), each counting the selected
 * lines of one line-aligned part: the same count as one pass (every line is in exactly one
 * part), a fraction of the time on a multi-core machine. An invalid pattern fails here, before
 * any thread starts. A shorthand for `parallelGrepScan` with `countOnly`.
 *
 * @example
 * ```ts
 * const errors = await parallelGrepCount('/var/log/huge.log', 'ERROR', { fixed: true });
 * ```
 */
export async function parallelGrepCount(
  path: string,
  pattern: string,
  options: ParallelGrepCountOptions = {},
): Promise<number> {
  const { matchCount } = await parallelGrepScan(path, pattern, { ...options, countOnly: true });
  return matchCount;
}
