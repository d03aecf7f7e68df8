import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { consumerProject, documents, snippetsOf, writeSnippets } from './helpers/doc-snippets.js';

/**
 * What the snippets of README and the guides use without defining: a client, a store or a
 * token of yours. Global declarations, so a snippet that defines one of these names itself
 * shadows it. Everything else a snippet uses it defines or imports: a tool from the `tools.ts`
 * that README's quick start has the reader save.
 */
const stubs = `
declare const signal: AbortSignal;
declare const fetchLogs: import('spoolforge').Tool<{ service: string }>;
declare const client: import('openai').OpenAI;
declare const store: import('spoolforge').ArtifactStore;
declare const token: string;
declare const instructions: string;
declare const question: string;
`;

// A consumer project compiled with the tsconfig.json README gives.
const consumer = consumerProject('spoolforge-readme-');
writeFileSync(join(consumer, 'stubs.d.ts'), stubs);
afterAll(() => rmSync(consumer, { recursive: true, force: true }));

const snippets = documents.flatMap((document) => snippetsOf(document, 'ts'));
const tsconfig = snippetsOf('README.md', 'json')
  .map((snippet) => JSON.parse(snippet.code) as { compilerOptions?: object })
  .find((json) => json.compilerOptions !== undefined);
const { options, errors } = ts.convertCompilerOptionsFromJson(tsconfig?.compilerOptions, consumer);
const files = writeSnippets(consumer, snippets);
const program = ts.createProgram([join(consumer, 'stubs.d.ts'), ...new Set(files)], {
  ...options,
  noEmit: true,
});

describe('README and the guides', () => {
  it('README has TypeScript snippets and a tsconfig.json, and so do the guides', () => {
    expect(snippets.filter((snippet) => snippet.document === 'README.md').length).toBeGreaterThan(
      5,
    );
    expect(new Set(snippets.map((snippet) => snippet.document)).size).toBeGreaterThan(5);
    expect(tsconfig).toBeDefined();
    expect(errors).toEqual([]);
  });

  it.each(
    snippets.map((snippet, index) => [snippet.document, snippet.line, files[index] as string]),
  )('%s: the snippet at line %i type-checks as shown', (_document, _line, file) => {
    const diagnostics = ts
      .getPreEmitDiagnostics(program, program.getSourceFile(file))
      .map((diagnostic) => {
        const where =
          diagnostic.start === undefined
            ? undefined
            : diagnostic.file?.getLineAndCharacterOfPosition(diagnostic.start);
        return `${where ? `+${where.line}: ` : ''}${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
      });
    expect(diagnostics).toEqual([]);
  });
});
