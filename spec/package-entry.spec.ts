import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { exportNames } from './helpers/export-names.js';

const root = fileURLToPath(new URL('..', import.meta.url));

describe('the built package', () => {
  it.each([
    ['spoolforge', 'spool'],
    ['spoolforge/engine', 'grepScan'],
    ['spoolforge/openai', 'toChatCompletionsMessages'],
    ['spoolforge/anthropic', 'toAnthropicMessages'],
    ['spoolforge/ai-sdk', 'spoolforgeToolSet'],
    ['spoolforge/openai-agents', 'spoolforgeAgentTools'],
    ['spoolforge/mcp', 'mcpTools'],
    ['spoolforge/s3', 'openS3ArtifactStore'],
  ])(
    '%s loads with import and with require (no top-level await in its graph)',
    (specifier, name) => {
      const imported = exportNames(specifier, 'import');
      expect(imported).toContain(name);
      expect(exportNames(specifier, 'require')).toEqual(imported);
    },
  );
});

/** Every string value in a JSON tree (the targets of `exports`, `typesVersions`, `bin`). */
function targets(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value === null || typeof value !== 'object') return [];
  return Object.values(value).flatMap(targets);
}

describe('the packed package', () => {
  it('ships LICENSE, every file package.json points at and the workers, and no source maps', () => {
    const packed = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(packed.status).toBe(0);
    const [tarball] = JSON.parse(packed.stdout) as { files: { path: string }[] }[];
    const files = new Set(tarball?.files.map((file) => file.path));
    const manifest = JSON.parse(readFileSync(`${root}/package.json`, 'utf8'));
    const pointedAt = targets([manifest.exports, manifest.typesVersions, manifest.bin]).map(
      (target: string) => target.replace(/^\.\//, ''),
    );
    for (const path of ['LICENSE', 'README.md', ...pointedAt]) expect(files).toContain(path);
    for (const worker of ['regex-worker', 'grep-scan-worker']) {
      expect(files).toContain(`dist/grep/${worker}.js`);
    }
    expect(files).toContain('dist/spool/line-index-worker.js');
    expect([...files].filter((path) => path.endsWith('.map'))).toEqual([]);
    expect([...files].filter((path) => !path.startsWith('dist/')).sort()).toEqual([
      'LICENSE',
      'README.md',
      'package.json',
    ]);
  });
});

/** The packages (by name) that loading `specifier` in a fresh process loads. */
function packagesLoadedBy(specifier: string): string[] {
  const directory = mkdtempSync(join(tmpdir(), 'spoolforge-loaded-'));
  const record = join(directory, 'loaded.txt');
  // A module hook that appends every URL Node loads to a file.
  const hooks = `import { appendFileSync } from 'node:fs';
    export async function load(url, context, next) {
      appendFileSync(${JSON.stringify(record)}, url + '\\n');
      return next(url, context);
    }`;
  const script = `import { register } from 'node:module';
    register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hooks)}));
    await import(${JSON.stringify(specifier)});`;
  try {
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(result.stderr).not.toMatch(/Error/);
    const urls = readFileSync(record, 'utf8').split('\n');
    const names = urls.map((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1]);
    return [...new Set(names.filter((name) => name !== undefined))].sort();
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

describe('importing the package', () => {
  it.each(['spoolforge', 'spoolforge/engine'])(
    '%s loads no dependency a call may never need: they load on first use',
    (specifier) => {
      const loaded = packagesLoadedBy(specifier);
      // The hook saw the imports: zod loads with the package (tool schemas are built on import).
      expect(loaded).toContain('zod');
      for (const lazy of [
        'gpt-tokenizer',
        'micromark',
        'markdown-it',
        'jsonpath-plus',
        '@msgpack/msgpack',
        'send',
        'fast-glob',
        '@aws-sdk/client-s3',
        '@aws-sdk/lib-storage',
        '@aws-sdk/s3-request-presigner',
      ]) {
        expect(loaded).not.toContain(lazy);
      }
    },
  );
});
