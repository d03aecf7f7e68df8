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
 * What README's snippets use without defining: your model call, your tool's output, your
 * client. Global declarations, so a snippet that defines one of these names itself shadows it.
 */
const stubs = `
type Tool<Input> = import('spoolforge').Tool<Input>;
declare const model: string;
declare const messages: unknown[];
declare const signal: AbortSignal;
declare const runTests: Tool<{ filter?: string | undefined }>;
declare const fetchLogs: Tool<{ service: string }>;
declare function streamOfTestOutput(filter: string | undefined, signal: AbortSignal): AsyncIterable<string>;
declare function callYourModel(messages: unknown[], tools: Tool<unknown>[]): Promise<{ toolCalls: import('spoolforge').ToolCallRequest[] }>;
declare const client: import('openai').OpenAI;
declare const store: import('spoolforge').ArtifactStore;
declare const token: string;
declare const instructions: string;
declare const question: string;
`;

/** Each ```LANGUAGE block of README with the line it starts on. */
function readmeSnippets(language: string): { line: number; code: string }[] {
  const lines = readFileSync(join(root, 'README.md'), 'utf8').split('\n');
  const snippets: { line: number; code: string }[] = [];
  let start = -1;
  for (const [index, line] of lines.entries()) {
    if (start < 0 && line === `\`\`\`${language}`) start = index + 1;
    else if (start >= 0 && line === '```') {
      snippets.push({ line: start, code: lines.slice(start, index).join('\n') });
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

const snippets = readmeSnippets('ts');
const tsconfig = readmeSnippets('json')
  .map((snippet) => JSON.parse(snippet.code) as { compilerOptions?: object })
  .find((json) => json.compilerOptions !== undefined);
const { options, errors } = ts.convertCompilerOptionsFromJson(tsconfig?.compilerOptions, consumer);
const files = snippets.map((snippet) => {
  const path = join(consumer, `readme-line-${snippet.line}.ts`);
  // A snippet without imports is still a module (top-level await).
  writeFileSync(path, `${snippet.code}\nexport {};\n`);
  return path;
});
const program = ts.createProgram([join(consumer, 'stubs.d.ts'), ...files], {
  ...options,
  noEmit: true,
});

describe('README', () => {
  it('has TypeScript snippets and a tsconfig.json', () => {
    expect(snippets.length).toBeGreaterThan(5);
    expect(tsconfig).toBeDefined();
    expect(errors).toEqual([]);
  });

  it.each(snippets.map((snippet, index) => [snippet.line, files[index] as string]))(
    'the snippet at line %i type-checks as shown',
    (_line, file) => {
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
    },
  );
});
