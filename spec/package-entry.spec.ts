import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { documents } from './helpers/doc-snippets.js';
import { exportNames } from './helpers/export-names.js';
import { headingAnchors, markdownLinks } from './helpers/markdown-links.js';

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

/** The paths `npm pack` puts in the tarball. */
function packedFiles(): Set<string> {
  const packed = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: root,
    encoding: 'utf8',
  });
  expect(packed.status).toBe(0);
  const [tarball] = JSON.parse(packed.stdout) as { files: { path: string }[] }[];
  return new Set(tarball?.files.map((file) => file.path));
}

/** How the guides link the repository's files the tarball leaves out (examples, specs). */
const repositoryUrl = /^https:\/\/github\.com\/spoolforge\/spoolforge\/(?:tree|blob)\/main\//;

describe('the packed package', () => {
  const files = packedFiles();

  it('ships LICENSE, every file package.json points at and the workers, and no source maps', () => {
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
    expect([...files].filter((path) => !path.startsWith('dist/')).sort()).toEqual(
      ['LICENSE', ...documents, 'package.json'].sort(),
    );
  });

  // README and the guides are read in the installed package (node_modules/spoolforge) and on
  // the package's page: a relative link must reach a file the tarball holds, and an anchor a
  // heading of it. Links into the repository (examples/) must name a file or folder it has.
  it.each(documents)('%s links only to packed files and headings that exist', (document) => {
    const broken: string[] = [];
    for (const { target, line } of markdownLinks(readFileSync(join(root, document), 'utf8'))) {
      if (repositoryUrl.test(target)) {
        const path = target.replace(repositoryUrl, '').replace(/#.*$/, '');
        if (!existsSync(join(root, path)))
          broken.push(`${line}: ${target} (not in the repository)`);
        continue;
      }
      if (/^[a-z]+:/.test(target)) continue;
      const [path = '', anchor] = target.split('#');
      const file = path === '' ? document : posix.join(posix.dirname(document), path);
      if (!files.has(file)) {
        broken.push(`${line}: ${target} (${file} is not in the tarball)`);
        continue;
      }
      const markdown = readFileSync(join(root, file), 'utf8');
      if (anchor !== undefined && !headingAnchors(markdown).has(anchor)) {
        broken.push(`${line}: ${target} (no heading #${anchor} in ${file})`);
      }
    }
    expect(broken).toEqual([]);
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
