import { availableParallelism } from 'node:os';

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
  const configured = Number(process.env.SPOOLFORGE_THREADS);
  if (Number.isInteger(configured) && configured > 0) return configured;
  return Math.min(availableParallelism(), 4);
}
