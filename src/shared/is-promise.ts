/**
 * Whether a value that may be a promise is one: for an answer given at once or later.
 *
 * @example
 * ```ts
 * isPromise(Promise.resolve([1])); // true
 * ```
 */
export function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof value === 'object' && value !== null && 'then' in value;
}
