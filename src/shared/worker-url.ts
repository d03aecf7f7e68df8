/**
 * The URL of a worker module, given by its path below `dist/` (`src/`). Workers are found from
 * this module rather than from the caller: the CLI is bundled into `dist/cli/`, where a
 * caller's `import.meta.url` names a bundle chunk. Both this module and the chunks sit one
 * directory below `dist/`, so the same relative URL reaches the compiled worker from either.
 * Other files the build writes are reached the same way, through `../dist/` so that the
 * sources (`src/`, in specs) find them too: `workerUrl('../dist/tokens/o200k_base.bin')`.
 *
 * @example
 * ```ts
 * new Worker(workerUrl('grep/regex-worker.js'));
 * ```
 */
export function workerUrl(path: string): URL {
  return new URL(`../${path}`, import.meta.url);
}
