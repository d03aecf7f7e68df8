import { availableParallelism } from 'node:os';

/**
 * The thread count set with `SPOOLFORGE_THREADS` (a positive integer), or `undefined`.
 *
 * @example
 * ```ts
 * configuredThreadCount(); // 3 with SPOOLFORGE_THREADS=3
 * ```
 */
export function configuredThreadCount(): number | undefined {
  const configured = Number(process.env.SPOOLFORGE_THREADS);
  return Number.isInteger(configured) && configured > 0 ? configured : undefined;
}

/**
 * How many threads a parallel scan uses by default: `SPOOLFORGE_THREADS` when set, else the
 * machine's parallelism, at most 4 (past that, memory bandwidth is the limit). A module of its
 * own so that deciding whether to go parallel does not load `node:worker_threads`.
 *
 * @example
 * ```ts
 * defaultThreadCount(); // 2 on a 2-core machine
 * ```
 */
export function defaultThreadCount(): number {
  return configuredThreadCount() ?? Math.min(availableParallelism(), 4);
}
