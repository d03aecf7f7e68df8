import { createRequire } from 'node:module';

/**
 * `node:fs` without its ES module facade. Importing `node:fs` as a module reads every export,
 * and its lazy `ReadStream` getter then loads Node's whole stream machinery: about 4 ms of a
 * CLI `tail` that never opens a stream. `process.getBuiltinModule` (Node 20.16+) returns the
 * module itself, as `require` does on older versions (no top-level `await`: the library stays
 * loadable with `require()`).
 *
 * @example
 * ```ts
 * fs.writeSync(1, bytes);
 * ```
 */
export const fs: typeof import('node:fs') =
  process.getBuiltinModule?.('node:fs') ?? createRequire(import.meta.url)('node:fs');
