import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Loads `specifier` in a fresh Node process (from the package root, so it self-references). */
function exportNames(specifier: string, how: 'require' | 'import'): string[] {
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

describe('the built package', () => {
  it.each([
    ['spoolforge', 'spool'],
    ['spoolforge/openai', 'toChatCompletionsMessages'],
    ['spoolforge/anthropic', 'toAnthropicMessages'],
    ['spoolforge/ai-sdk', 'spoolforgeToolSet'],
  ])(
    '%s loads with import and with require (no top-level await in its graph)',
    (specifier, name) => {
      const imported = exportNames(specifier, 'import');
      expect(imported).toContain(name);
      expect(exportNames(specifier, 'require')).toEqual(imported);
    },
  );
});
