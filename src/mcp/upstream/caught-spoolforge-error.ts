import { SpoolforgeError } from '../../shared/spoolforge-error.js';

/**
 * Runs `run` and returns the `SpoolforgeError` it threw, or `undefined`; any other error is
 * thrown on (a bug, not bad input). For a parser that fails one message, not the stream.
 *
 * @example
 * ```ts
 * const failure = caughtSpoolforgeError(() => JSON.parse('{}'));
 * ```
 */
export function caughtSpoolforgeError(run: () => void): SpoolforgeError | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    if (SpoolforgeError.isInstance(error)) return error;
    throw error;
  }
}
