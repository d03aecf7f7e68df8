import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repositoryRoot } from './repository-files.js';

/** README and every guide under docs/, as paths from the repository's root. */
export const documents = [
  'README.md',
  ...readdirSync(join(repositoryRoot, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
];

/** A fenced code block of a document. */
export interface Snippet {
  document: string;
  /** The line of its opening fence, counted from 1. */
  line: number;
  code: string;
  /** The file it asks to be saved as, from a first line such as `// tools.ts`. */
  file?: string;
  /** What it prints when run, from a `<!-- runs offline: prints "…" -->` line before it. */
  prints?: string;
}

/** Each ```LANGUAGE block of a document. */
export function snippetsOf(document: string, language: string): Snippet[] {
  const lines = readFileSync(join(repositoryRoot, document), 'utf8').split('\n');
  const snippets: Snippet[] = [];
  let start = -1;
  for (const [index, line] of lines.entries()) {
    if (start < 0 && line === `\`\`\`${language}`) start = index + 1;
    else if (start >= 0 && line === '```') {
      const code = lines.slice(start, index).join('\n');
      const file = /^\/\/ ([\w-]+\.ts)$/.exec(lines[start] ?? '')?.[1];
      const prints = /^<!-- runs offline: prints "(.+)" -->$/.exec(lines[start - 2] ?? '')?.[1];
      snippets.push({
        document,
        line: start,
        code,
        ...(file ? { file } : {}),
        ...(prints ? { prints } : {}),
      });
      start = -1;
    }
  }
  return snippets;
}

/**
 * Writes each snippet into `directory`: a named one under its name (the same name twice must be
 * the same code), so the others import it as a reader's project would; any other as a module
 * of its own. Returns each snippet's path, in order.
 */
export function writeSnippets(directory: string, snippets: readonly Snippet[]): string[] {
  const named = new Map<string, string>();
  return snippets.map((snippet) => {
    const name = snippet.file ?? `${snippet.document.replace(/\W+/g, '-')}-line-${snippet.line}.ts`;
    if (snippet.file !== undefined) {
      const earlier = named.get(snippet.file);
      if (earlier !== undefined && earlier !== snippet.code) {
        throw new Error(
          `${snippet.document}:${snippet.line}: ${snippet.file} differs from its copy`,
        );
      }
      named.set(snippet.file, snippet.code);
    }
    const path = join(directory, name);
    // A snippet without imports is still a module (top-level await).
    writeFileSync(path, `${snippet.code}\nexport {};\n`);
    return path;
  });
}

/**
 * A consumer project in a temp directory: ES modules, the built package and the repository's
 * dependencies installed as links. The caller removes it.
 */
export function consumerProject(prefix: string): string {
  const consumer = mkdtempSync(join(tmpdir(), prefix));
  const modules = join(consumer, 'node_modules');
  mkdirSync(modules);
  for (const name of readdirSync(join(repositoryRoot, 'node_modules'))) {
    if (!name.startsWith('.')) {
      symlinkSync(join(repositoryRoot, 'node_modules', name), join(modules, name));
    }
  }
  symlinkSync(repositoryRoot, join(modules, 'spoolforge'), 'dir');
  writeFileSync(join(consumer, 'package.json'), '{ "type": "module" }\n');
  return consumer;
}
