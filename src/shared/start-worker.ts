import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Options of the parent's command line that a worker thread refuses: a worker inherits
 * `process.execArgv`, and under `node --input-type=module -e …` that fails every worker with
 * ERR_WORKER_INVALID_EXEC_ARGV.
 */
const processOnlyOptions = /^--input-type(=|$)/;

/**
 * Starts a worker thread on `url` with the parent's `execArgv` (loaders, conditions, inspector
 * flags) less what only a process accepts.
 *
 * @example
 * ```ts
 * const worker = startWorker(workerUrl('grep/regex-worker.js'), { workerData: { source: 'a+', flags: '' } });
 * ```
 */
export function startWorker(url: URL, options: WorkerOptions = {}): Worker {
  const execArgv: string[] = [];
  const inherited = process.execArgv;
  for (let index = 0; index < inherited.length; index++) {
    const option = inherited[index] as string;
    if (!processOnlyOptions.test(option)) execArgv.push(option);
    else if (option === '--input-type') index++; // its value is the next argument
  }
  return new Worker(url, { execArgv, ...options });
}
