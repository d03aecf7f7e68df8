import { fileParts, runInWorkers } from '../../spool/parallel-ranges.js';
import { compileMatcher, type PatternOptions } from './compile-matcher.js';

/**
 * Options for {@link parallelGrepCount}: grep's pattern flags, `invert`, and the threads.
 *
 * @example
 * ```ts
 * const options: ParallelGrepCountOptions = { ignoreCase: true, threads: 2 };
 * ```
 */
export interface ParallelGrepCountOptions extends Pick<PatternOptions, 'fixed' | 'ignoreCase'> {
  invert?: boolean;
  /** Worker threads, one per line-aligned part. Default `defaultThreadCount()`. */
  threads?: number;
  signal?: AbortSignal;
}

/**
 * `grep -c` over a file by worker threads, each counting the selected lines of one
 * line-aligned part: the same count as one pass (every line is in exactly one part), a
 * fraction of the time on a multi-core machine. An invalid pattern fails here, before any
 * thread starts.
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
  const { signal } = options;
  const patternOptions = {
    ...(options.fixed === undefined ? {} : { fixed: options.fixed }),
    ...(options.ignoreCase === undefined ? {} : { ignoreCase: options.ignoreCase }),
  };
  await compileMatcher(pattern, patternOptions).dispose();
  const parts = await fileParts(path, { threads: options.threads, signal });
  const tasks = parts.map((range) => ({
    path,
    pattern,
    patternOptions,
    invert: options.invert ?? false,
    ...range,
  }));
  const counts = await runInWorkers<number>(
    new URL('./grep-count-worker.js', import.meta.url),
    tasks,
    signal ? { signal } : {},
  );
  return counts.reduce((total, count) => total + count, 0);
}
