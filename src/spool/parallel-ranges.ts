import {
  abortError,
  SpoolforgeError,
  type SpoolforgeErrorCode,
  throwIfAborted,
} from '../shared/spoolforge-error.js';
import { startWorker } from '../shared/start-worker.js';
import { FileSpoolReader } from './file-spool-reader.js';
import { seekLine } from './seek-line.js';
import type { SpoolReader } from './spool-reader.js';
import { defaultThreadCount } from './thread-count.js';

/**
 * A byte range that starts at a line start and ends at the next part's, so parts hold whole
 * lines and every line is in exactly one part.
 */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Splits `[0, size)` into `parts` ranges of about equal size, each boundary moved forward to
 * the next line start (a part is empty when one line spans it).
 *
 * @example
 * ```ts
 * const ranges = await lineAlignedRanges(reader, await reader.byteLength(), 4);
 * ```
 */
export async function lineAlignedRanges(
  reader: SpoolReader,
  size: number,
  parts: number,
  options: { signal?: AbortSignal } = {},
): Promise<ByteRange[]> {
  const boundaries = [0];
  for (let part = 1; part < parts; part++) {
    const rough = Math.floor((size * part) / parts);
    const previous = boundaries.at(-1) ?? 0;
    // The line after the one holding byte `rough - 1` starts where this part does.
    const aligned =
      rough <= previous
        ? previous
        : await seekLine(reader, { line: 0, offset: rough - 1 }, 1, { end: size, ...options });
    boundaries.push(Math.max(previous, aligned));
  }
  boundaries.push(size);
  return boundaries.slice(0, -1).map((start, index) => ({
    start,
    end: boundaries[index + 1] ?? size,
  }));
}

/**
 * The non-empty line-aligned parts of a file, one per thread (default
 * {@link defaultThreadCount}).
 *
 * @example
 * ```ts
 * const parts = await fileParts('/var/log/huge.log', { threads: 4 });
 * ```
 */
export async function fileParts(
  path: string,
  options: { threads?: number | undefined; signal?: AbortSignal | undefined } = {},
): Promise<ByteRange[]> {
  const reader = new FileSpoolReader(path);
  try {
    const size = await reader.byteLength();
    const threads = options.threads ?? defaultThreadCount();
    const ranges = await lineAlignedRanges(reader, size, threads, {
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return ranges.filter((range) => range.end > range.start);
  } finally {
    await reader.close();
  }
}

/**
 * Runs one worker per task (`workerUrl` gets the task as `workerData` and posts one result),
 * resolving with the results in task order. The first failure or an abort terminates them all.
 *
 * @example
 * ```ts
 * const snapshots = await runInWorkers<LineIndexSnapshot>(workerUrl('spool/line-index-worker.js'), tasks);
 * ```
 */
export function runInWorkers<Result>(
  workerUrl: URL,
  tasks: readonly unknown[],
  options: { signal?: AbortSignal } = {},
): Promise<Result[]> {
  const { signal } = options;
  throwIfAborted(signal);
  const workers = tasks.map((task) => startWorker(workerUrl, { workerData: task }));
  const stopAll = () => Promise.all(workers.map((worker) => worker.terminate()));
  const results = Promise.all(
    workers.map(
      (worker) =>
        new Promise<Result>((resolve, reject) => {
          worker.once('message', (result: Result | WorkerFailure) =>
            isWorkerFailure(result)
              ? reject(new SpoolforgeError(result.failure.code, result.failure.message))
              : resolve(result as Result),
          );
          worker.once('error', reject);
          worker.once('exit', (code) =>
            reject(new SpoolforgeError('E_IO', `A worker thread exited with code ${code}`)),
          );
        }),
    ),
  );
  const onAbort = () => void stopAll();
  signal?.addEventListener('abort', onAbort, { once: true });
  return results
    .then(
      (values) => values,
      async (error: unknown) => {
        await stopAll();
        throw signal?.aborted ? abortError(signal) : error;
      },
    )
    .finally(() => signal?.removeEventListener('abort', onAbort));
}

/**
 * What a worker posts instead of a result when its task fails: errors lose their `code` when
 * cloned across threads, so it travels as data.
 *
 * @example
 * ```ts
 * parentPort?.postMessage(workerFailure(error));
 * ```
 */
export interface WorkerFailure {
  failure: { code: SpoolforgeErrorCode; message: string };
}

/**
 * The {@link WorkerFailure} for `error`: its spoolforge code, else `E_IO`.
 *
 * @example
 * ```ts
 * run(workerData).then((result) => parentPort?.postMessage(result), (error) => parentPort?.postMessage(workerFailure(error)));
 * ```
 */
export function workerFailure(error: unknown): WorkerFailure {
  const code = SpoolforgeError.isInstance(error) ? error.code : 'E_IO';
  return { failure: { code, message: String((error as Error)?.message ?? error) } };
}

/**
 * Whether a worker's message is a {@link WorkerFailure} rather than a result.
 *
 * @example
 * ```ts
 * worker.on('message', (message) => void (isWorkerFailure(message) && console.error(message.failure)));
 * ```
 */
export function isWorkerFailure(value: unknown): value is WorkerFailure {
  return typeof value === 'object' && value !== null && 'failure' in value;
}
