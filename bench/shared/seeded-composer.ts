import { createRandom } from './create-random.js';
import type { Stamps } from './pooled-log.js';

/**
 * What every log composer starts from: a seeded generator of whole numbers and picks, and the
 * stamps (timestamps, request ids) its lines carry.
 *
 * @example
 * ```ts
 * class QuietComposer extends SeededComposer {
 *   entry = () => `${this.stamps.timestamp()} ok ${this.integer(10)}\n`;
 * }
 * ```
 */
export class SeededComposer {
  readonly #random: () => number;
  protected readonly stamps: Stamps;

  constructor(stamps: Stamps, seed: number) {
    this.stamps = stamps;
    this.#random = createRandom(seed);
  }

  /** A whole number in `[0, limit)`. */
  integer(limit: number): number {
    return (this.#random() * limit) | 0;
  }

  pick<T>(values: readonly T[]): T {
    return values[this.integer(values.length)] as T;
  }
}
