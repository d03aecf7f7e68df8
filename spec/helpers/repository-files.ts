import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
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

/**
 * The relative modules `file` imports (static, dynamic and type-only) as absolute paths of
 * their `.ts` sources; comments are left out.
 */
export function relativeImports(file: string): string[] {
  const code = readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');
  return [...code.matchAll(/(?:\bfrom|\bimport\s*\()\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((match) =>
    resolve(dirname(file), (match[1] ?? '').replace(/\.js$/, '.ts')),
  );
}
