import type { Worker } from 'node:worker_threads';
import { QueryPool } from '../shared/query-pool.js';
import { abortError, SpoolforgeError } from '../shared/spoolforge-error.js';
import { startWorker } from '../shared/start-worker.js';
import { workerUrl } from '../shared/worker-url.js';

/**
 * Options of a {@link RegexWorkerPool}.
 */
export interface RegexWorkerPoolOptions {
  /** Worker threads alive at most, running or idle. Default 2. */
  maxWorkers?: number;
  /** Scans that wait for a worker before a bounded one fails with `E_BUSY`. Default 8. */
  maxQueued?: number;
  /** Milliseconds an idle worker is kept warm before it ends. Default 5,000. */
  idleMs?: number;
}

/**
 * What a scan asks a {@link RegexWorkerPool} for.
 */
export interface RegexWorkerRequest {
  signal?: AbortSignal;
  /** `Date.now()` past which the scan is over: waiting for a worker stops then with `E_BUSY`. */
  deadline?: number;
  /**
   * With a full queue: `'fail'` at once with `E_BUSY` (the model-facing tools), or `'wait'`
   * past the queue bound (the default: your own code's scans).
   */
  whenBusy?: 'wait' | 'fail';
}

/**
 * A worker lent to one scan. `release(true)` gives it back warm; `release(false)` (after a
 * timeout, an abort, a failure, or with blocks still in flight) terminates it, the only way to
 * stop a backtracking regex, and its turn passes on once the thread is gone.
 */
export interface RegexWorkerLease {
  readonly worker: Worker;
  release(reusable: boolean): void;
}

/**
 * The worker threads regex scans run in, shared by a process's scans: at most `maxWorkers`
 * threads alive, at most `maxQueued` scans waiting, the idle ones kept warm for `idleMs` and
 * never holding the process open. A worker runs one scan at a time and is reused by the next,
 * whatever its pattern.
 *
 * @example
 * ```ts
 * const lease = await regexWorkerPool.lease({ whenBusy: 'fail', deadline: Date.now() + 10_000 });
 * lease.release(true);
 * ```
 */
export class RegexWorkerPool {
  readonly #turns: QueryPool;
  readonly #idleMs: number;
  readonly #idle: { worker: Worker; timer: NodeJS.Timeout }[] = [];
  #live = 0;
  #created = 0;

  constructor(options: RegexWorkerPoolOptions = {}) {
    this.#turns = new QueryPool({
      concurrency: options.maxWorkers ?? 2,
      queueLimit: options.maxQueued ?? 8,
      names: { concurrency: 'maxWorkers', queueLimit: 'maxQueued' },
    });
    this.#idleMs = options.idleMs ?? 5_000;
  }

  /**
   * Worker threads alive now and started since the pool was made; scans holding a worker and
   * scans waiting for one.
   */
  get stats(): { live: number; created: number; running: number; waiting: number } {
    return { live: this.#live, created: this.#created, ...this.#turns.load };
  }

  /**
   * A worker for one scan, once a turn is free: `E_BUSY` when the queue is full (`whenBusy:
   * 'fail'`) or the deadline passes first, `E_ABORTED` when the signal fires first.
   */
  async lease(request: RegexWorkerRequest = {}): Promise<RegexWorkerLease> {
    const { signal, deadline } = request;
    const waitLimit =
      deadline === undefined ? undefined : AbortSignal.timeout(Math.max(0, deadline - Date.now()));
    const waitSignal = waitLimit
      ? AbortSignal.any([waitLimit, ...(signal ? [signal] : [])])
      : signal;
    let release: (() => void) | undefined;
    try {
      release = await this.#turns.acquire(waitSignal, {
        queue: request.whenBusy === 'fail' ? 'bounded' : 'unbounded',
      });
    } catch (error) {
      if (signal?.aborted) throw abortError(signal);
      if (!waitLimit?.aborted) throw error;
    }
    if (release === undefined) {
      const { running, waiting } = this.#turns.load;
      throw new SpoolforgeError(
        'E_BUSY',
        `Regex search is busy (${running} running, ${waiting} waiting${waitLimit?.aborted ? ', and this one waited its whole time budget' : ''}): ` +
          'retry later, or search a fixed string (fixed: true)',
      );
    }
    const turn = release;
    let worker: Worker;
    try {
      worker = this.#warmWorker() ?? this.#startWorker();
    } catch (error) {
      turn();
      throw new SpoolforgeError(
        'E_IO',
        `Regex worker failed to start: ${(error as Error).message}`,
        {
          cause: error,
        },
      );
    }
    worker.ref();
    return {
      worker,
      release: (reusable) => {
        if (reusable) {
          this.#keepWarm(worker);
          turn();
        } else {
          void worker.terminate().finally(turn);
        }
      },
    };
  }

  #warmWorker(): Worker | undefined {
    const idle = this.#idle.pop();
    if (idle) clearTimeout(idle.timer);
    return idle?.worker;
  }

  #keepWarm(worker: Worker): void {
    worker.unref();
    const timer = setTimeout(() => {
      // Out of the idle list first: a lease must never take a worker on its way out.
      this.#dropIdle(worker);
      void worker.terminate();
    }, this.#idleMs);
    timer.unref();
    this.#idle.push({ worker, timer });
  }

  #startWorker(): Worker {
    const worker = startWorker(workerUrl('grep/regex-worker.js'), {
      // A small nursery is collected often; each slice's strings are garbage at once, so this
      // costs no speed and keeps the worker's share of RSS small.
      resourceLimits: { maxYoungGenerationSizeMb: 8 },
    });
    this.#live++;
    this.#created++;
    // A lent worker's failures reach its scan; an idle one that fails is only dropped.
    worker.on('error', () => undefined);
    worker.once('exit', () => {
      this.#live--;
      this.#dropIdle(worker);
    });
    return worker;
  }

  #dropIdle(worker: Worker): void {
    const index = this.#idle.findIndex((idle) => idle.worker === worker);
    if (index >= 0) clearTimeout(this.#idle.splice(index, 1)[0]?.timer);
  }
}

/** The pool every {@link RegexLineMatcher} of this process uses unless given another. */
export const regexWorkerPool = new RegexWorkerPool();
