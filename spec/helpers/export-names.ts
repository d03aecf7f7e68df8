import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The export names of `specifier` as a fresh Node process loads it with `require` or `import`
 * (from the package root, so the package self-references through its `exports`).
 */
export function exportNames(specifier: string, how: 'require' | 'import'): string[] {
  const load =
    how === 'require'
      ? `Promise.resolve(require(${JSON.stringify(specifier)}))`
      : `import(${JSON.stringify(specifier)})`;
  const result = spawnSync(
    process.execPath,
    ['-e', `${load}.then((m) => console.log(JSON.stringify(Object.keys(m))))`],
    { cwd: root, encoding: 'utf8' },
  );
  expect(result.stderr).not.toMatch(/Error/);
  return JSON.parse(result.stdout);
}
