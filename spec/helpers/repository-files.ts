import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root directory. */
export const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url));

/** Folders that hold no source: installed packages, generated bench data and results. */
const generated = new Set(['node_modules', 'dist', 'data', 'results']);

/**
 * Every file below `directory` (an absolute path), recursively, generated folders left out;
 * with `extension`, only the names that end with it.
 */
export function filesUnder(directory: string, extension = ''): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return generated.has(entry.name) ? [] : filesUnder(path, extension);
    return entry.name.endsWith(extension) ? [path] : [];
  });
}
