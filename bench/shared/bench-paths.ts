import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The repository's root: where `dist/` (the built library every bench measures), `src/` and
 * `node_modules/` are.
 *
 * @example
 * ```ts
 * const cliPath = join(repositoryRoot, 'dist', 'cli', 'main.js');
 * ```
 */
export const repositoryRoot = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');

/**
 * Where generated inputs are cached between runs (`bench/data/`, ignored by git): they are
 * deterministic, and a multi-GB one takes a while to write.
 *
 * @example
 * ```ts
 * const logPath = join(dataDirectory, 'log-1G.log');
 * ```
 */
export const dataDirectory = fileURLToPath(new URL('../data/', import.meta.url));

/**
 * Where every bench writes its results (`bench/results/`, ignored by git).
 *
 * @example
 * ```ts
 * const resultsPath = join(resultsDirectory, `json-${sizeLabel}.json`);
 * ```
 */
export const resultsDirectory = fileURLToPath(new URL('../results/', import.meta.url));
