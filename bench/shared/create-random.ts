/**
 * A seeded generator of numbers in `[0, 1)` (mulberry32): tiny, fast and, unlike `Math.random`,
 * the same on every run.
 *
 * @example
 * ```ts
 * const random = createRandom(42);
 * const die = 1 + Math.floor(random() * 6);
 * ```
 */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), state | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}
