import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { filesUnder, repositoryRoot } from '../helpers/repository-files.js';

const src = join(repositoryRoot, 'src');
const sources = filesUnder(src, '.ts').map((file) => ({
  path: relative(src, file),
  code: readFileSync(file, 'utf8'),
}));

/** The codes of the `SpoolforgeErrorCode` union. */
const declared = [
  ...(sources.find(({ path }) => path === 'shared/spoolforge-error.ts')?.code ?? '').matchAll(
    /^\s*\| '(E_[A-Z_]+)'/gm,
  ),
].map((match) => match[1]);

/** The codes some module constructs a `SpoolforgeError` with. */
const thrown = new Set(
  sources.flatMap(({ code }) =>
    [...code.matchAll(/new SpoolforgeError\(\s*'(E_[A-Z_]+)'/g)].map((match) => match[1]),
  ),
);

describe('SpoolforgeError codes', () => {
  it('declares only codes that some module throws', () => {
    expect(declared.length).toBeGreaterThan(20);
    expect(declared.filter((code) => !thrown.has(code))).toEqual([]);
  });

  it('is the only error src makes: a plain Error only as a system error that fileError maps', () => {
    const plain = sources.flatMap(({ path, code }) =>
      code
        .split('\n')
        .map((line, index) => ({ line, where: `${path}:${index + 1}` }))
        .filter(({ line }) => /\bnew (?:Type|Range)?Error\(/.test(line))
        // fileError turns a system error into E_FILE_NOT_FOUND / E_NOT_A_FILE / E_IO; a
        // redacted copy of a cause is never thrown itself.
        .filter(({ line }) => !/fileError\(.*new Error\(/.test(line))
        .filter(({ where }) => !where.startsWith('spool/http/redact-secrets.ts:'))
        .map(({ line, where }) => `${where}: ${line.trim()}`),
    );
    expect(plain).toEqual([]);
  });

  it('are each explained in the table of docs/architecture.md', () => {
    const documented = [
      ...readFileSync(join(repositoryRoot, 'docs', 'architecture.md'), 'utf8').matchAll(
        /^\| `(E_[A-Z_]+)` \|/gm,
      ),
    ].map((match) => match[1]);
    expect(documented).toEqual([...declared].sort());
  });
});
