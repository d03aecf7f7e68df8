import { setImmediate as nextTurn } from 'node:timers/promises';

/** How many items run between two turns of the event loop. */
const batch = 4096;

/**
 * Runs `visit` on each item, letting the event loop turn every few thousand items: a proxy
 * serves many clients in one thread, and one client's result of a million parts must not
 * stall the others' calls.
 *
 * @example
 * ```ts
 * let total = 0;
 * await eachYielding([1, 2, 3], (item) => {
 *   total += item;
 * });
 * ```
 */
export async function eachYielding<T>(
  items: readonly T[],
  visit: (item: T) => void,
): Promise<void> {
  for (let index = 0; index < items.length; index++) {
    if (index > 0 && index % batch === 0) await nextTurn();
    visit(items[index] as T);
  }
}
