import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Builds `dist/` when the CLI is missing; warns when `src/` changed after the last build, since
 * the benchmarks measure the built library.
 *
 * @example
 * ```ts
 * ensureBuilt('/work/spoolforge');
 * ```
 */
export function ensureBuilt(root: string): void {
  const cliPath = join(root, 'dist', 'cli', 'main.js');
  if (!existsSync(cliPath)) {
    console.error('dist/cli/main.js is missing: running npm run build');
    const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('npm run build failed');
    return;
  }
  const built = statSync(cliPath).mtimeMs;
  const source = join(root, 'src');
  const newer = readdirSync(source, { recursive: true, encoding: 'utf8' }).filter(
    (path) => statSync(join(source, path)).mtimeMs > built,
  );
  if (newer.length > 0) {
    console.error(
      `warning: src/ is newer than dist/, which may be stale (npm run build): ${newer.join(', ')}`,
    );
  }
}

/**
 * Paths and modification times of the built files, to notice a rebuild during a run.
 *
 * @example
 * ```ts
 * const before = distFingerprint(root); // …run…; distFingerprint(root) !== before means rebuilt
 * ```
 */
export function distFingerprint(root: string): string {
  const directory = join(root, 'dist');
  const files = readdirSync(directory, { recursive: true, encoding: 'utf8' }).filter((path) =>
    path.endsWith('.js'),
  );
  return files
    .sort()
    .map((path) => `${path}:${statSync(join(directory, path)).mtimeMs}`)
    .join('\n');
}
