import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

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

/** README and every guide under docs/, as paths from the repository's root. */
const documents = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
];

/** A snippet: where it starts, its code, and the file it asks to be saved as (`// tools.ts`). */
interface Snippet {
  document: string;
  line: number;
  code: string;
  file?: string;
}

/** Each ```LANGUAGE block of a document with the line it starts on. */
function snippetsOf(document: string, language: string): Snippet[] {
  const lines = readFileSync(join(root, document), 'utf8').split('\n');
  const snippets: Snippet[] = [];
  let start = -1;
  for (const [index, line] of lines.entries()) {
    if (start < 0 && line === `\`\`\`${language}`) start = index + 1;
    else if (start >= 0 && line === '```') {
      const code = lines.slice(start, index).join('\n');
      const file = /^\/\/ ([\w-]+\.ts)$/.exec(lines[start] ?? '')?.[1];
      snippets.push({ document, line: start, code, ...(file ? { file } : {}) });
      start = -1;
    }
  }
  return snippets;
}

// A consumer project: the built package and the repository's dependencies installed as links,
// ES modules, compiled with the tsconfig.json README gives.
const consumer = mkdtempSync(join(tmpdir(), 'spoolforge-readme-'));
const modules = join(consumer, 'node_modules');
mkdirSync(modules);
for (const name of readdirSync(join(root, 'node_modules'))) {
  if (!name.startsWith('.')) symlinkSync(join(root, 'node_modules', name), join(modules, name));
}
symlinkSync(root, join(modules, 'spoolforge'), 'dir');
writeFileSync(join(consumer, 'package.json'), '{ "type": "module" }\n');
writeFileSync(join(consumer, 'stubs.d.ts'), stubs);
afterAll(() => rmSync(consumer, { recursive: true, force: true }));

const snippets = documents.flatMap((document) => snippetsOf(document, 'ts'));
const tsconfig = snippetsOf('README.md', 'json')
  .map((snippet) => JSON.parse(snippet.code) as { compilerOptions?: object })
  .find((json) => json.compilerOptions !== undefined);
const { options, errors } = ts.convertCompilerOptionsFromJson(tsconfig?.compilerOptions, consumer);
// A named snippet is saved under its name (the same name twice must be the same code), so the
// others import it as a reader's project would; every other snippet is a module of its own.
const named = new Map<string, string>();
const files = snippets.map((snippet) => {
  const name = snippet.file ?? `${snippet.document.replace(/\W+/g, '-')}-line-${snippet.line}.ts`;
  if (snippet.file !== undefined) {
    const earlier = named.get(snippet.file);
    if (earlier !== undefined && earlier !== snippet.code) {
      throw new Error(`${snippet.document}:${snippet.line}: ${snippet.file} differs from its copy`);
    }
    named.set(snippet.file, snippet.code);
  }
  const path = join(consumer, name);
  // A snippet without imports is still a module (top-level await).
  writeFileSync(path, `${snippet.code}\nexport {};\n`);
  return path;
});
const program = ts.createProgram([join(consumer, 'stubs.d.ts'), ...new Set(files)], {
  ...options,
  noEmit: true,
});

describe('README and the guides', () => {
  it('have TypeScript snippets in every document that has code, and README a tsconfig.json', () => {
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
