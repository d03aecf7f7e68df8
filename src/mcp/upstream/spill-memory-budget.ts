import { SpoolWriter } from '../../spool/spool-writer.js';
import type { JsonSpillParserOptions } from './json-spill-parser-options.js';

/**
 * The memory one message's spools may keep before they go to disk: each new spool gets what is
 * left of `spillMemoryBytes` (32 MiB by default), at most the writer's own threshold.
 *
 * @example
 * ```ts
 * const budget = new SpillMemoryBudget({ spillMemoryBytes: 8 * 1024 * 1024 });
 * const memoryThreshold = budget.next();
 * ```
 */
export class SpillMemoryBudget {
  readonly #wanted: number;
  readonly #budget: number;
  /** Memory promised to the current message's spools so far. */
  #promised = 0;

  constructor(options: Pick<JsonSpillParserOptions, 'writer' | 'spillMemoryBytes'>) {
    this.#wanted = options.writer?.memoryThreshold ?? SpoolWriter.defaultMemoryThreshold;
    this.#budget = options.spillMemoryBytes ?? 32 * 1024 * 1024;
  }

  /** What the next spool may keep in memory. */
  next(): number {
    const threshold = Math.max(0, Math.min(this.#wanted, this.#budget - this.#promised));
    this.#promised += threshold;
    return threshold;
  }

  /** A new message: the whole budget again. */
  reset(): void {
    this.#promised = 0;
  }
}
