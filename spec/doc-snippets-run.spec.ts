import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { consumerProject, documents, snippetsOf, writeSnippets } from './helpers/doc-snippets.js';

// The snippets marked `<!-- runs offline: prints "…" -->` (running an agent without an API key)
// run in a consumer project beside the named files they import (`test-output.ts`,
// `scripted-model.ts`): each checks its own outcome with node:assert, and must print the line.
const snippets = documents.flatMap((document) => snippetsOf(document, 'ts'));
const consumer = consumerProject('spoolforge-doc-run-');
afterAll(() => rmSync(consumer, { recursive: true, force: true }));
const files = writeSnippets(consumer, snippets);
const runnable = snippets.flatMap((snippet, index) =>
  snippet.prints === undefined
    ? []
    : [[snippet.document, snippet.line, files[index] as string, snippet.prints] as const],
);

describe('the guides’ offline snippets', () => {
  it('include one for each adapter', () => {
    expect(runnable.length).toBeGreaterThanOrEqual(6);
  });

  it.each(runnable)(
    '%s: the snippet at line %i runs and prints what it says',
    (_document, _line, file, prints) => {
      const run = spawnSync(process.execPath, ['--import', 'tsx', file], {
        cwd: consumer,
        encoding: 'utf8',
        timeout: 110_000,
      });
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      expect(run.stdout).toContain(prints);
    },
    120_000,
  );
});
