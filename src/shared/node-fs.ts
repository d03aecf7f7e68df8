/**
 * `node:fs` without its ES module facade. Importing `node:fs` as a module reads every export,
 * and its lazy `ReadStream` getter then loads Node's whole stream machinery: about 4 ms of a
 * CLI `tail` that never opens a stream. `process.getBuiltinModule` (Node 20.16+) returns the
 * module itself; older versions fall back to the import.
 *
 * @example
 * ```ts
 * import { fs } from '../shared/node-fs.js';
 * fs.writeSync(1, bytes);
 * ```
 */
export const fs: typeof import('node:fs') =
  process.getBuiltinModule?.('node:fs') ?? (await import('node:fs'));
