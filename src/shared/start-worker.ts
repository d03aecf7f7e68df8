import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Options of the parent's command line that a worker thread refuses, known in advance: a
 * worker inherits `process.execArgv`, and under `node --input-type=module -e …` that fails
 * every worker with ERR_WORKER_INVALID_EXEC_ARGV. Per-process and V8 options
 * (`--max-old-space-size`, `--expose-gc`, `--stack-size`, …) are refused too; Node names them
 * in its error, and {@link startWorker} drops those it names.
 */
const processOnlyOptions = /^--input-type(=|$)/;

/** The `execArgv` workers last accepted; computed once per process. */
let acceptedExecArgv: string[] | undefined;

/** `args` less `options` (each bare or `--name=value`; a bare one's value is the next argument). */
function without(args: readonly string[], options: (name: string) => boolean): string[] {
  const kept: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    const name = arg.split('=', 1)[0] as string;
    if (!options(name)) kept.push(arg);
    else if (arg === name && !(args[index + 1] ?? '-').startsWith('-')) index++;
  }
  return kept;
}

/** The options an ERR_WORKER_INVALID_EXEC_ARGV error names. */
function refusedOptions(error: Error): Set<string> {
  const list = error.message.split(': ').slice(1).join(': ');
  return new Set(list.split(', ').map((option) => option.split('=', 1)[0] as string));
}

/**
 * Starts a worker thread on `url` with the parent's `execArgv` (loaders, conditions, inspector
 * flags) less what only a process accepts: first less the options known in advance, then also
 * less those Node's error names, then with none, so no command line of the parent (`node
 * --max-old-space-size=512 app.js`) can fail a worker.
 *
 * @example
 * ```ts
 * const worker = startWorker(workerUrl('grep/regex-worker.js'));
 * ```
 */
export function startWorker(url: URL, options: WorkerOptions = {}): Worker {
  if (acceptedExecArgv) return new Worker(url, { execArgv: acceptedExecArgv, ...options });
  let execArgv = without(process.execArgv, (name) => processOnlyOptions.test(name));
  for (let attempt = 0; ; attempt++) {
    try {
      const worker = new Worker(url, { execArgv, ...options });
      acceptedExecArgv = execArgv;
      return worker;
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code !== 'ERR_WORKER_INVALID_EXEC_ARGV' || execArgv.length === 0) throw error;
      const refused = refusedOptions(error as Error);
      execArgv = attempt === 0 ? without(execArgv, (name) => refused.has(name)) : [];
    }
  }
}
