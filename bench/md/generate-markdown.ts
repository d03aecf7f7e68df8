import { mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { dataDirectory } from '../shared/bench-paths.js';

/**
 * A generated Markdown document and what it holds by construction.
 *
 * @example
 * ```ts
 * const { path, headingCount } = await ensureMarkdownData({ size: 4 * 1024 * 1024, sizeLabel: '4M' });
 * ```
 */
export interface MarkdownData {
  path: string;
  bytes: number;
  headingCount: number;
  codeBlockCount: number;
}

/** Sections a generated document repeats, with what each adds to the counts. */
const headingsPerSection = 3;
const codeBlocksPerSection = 2;

/**
 * One section of prose, lists, a fence, a table, a quote and indented code, with the `#` lines
 * that are no headings (in code, `#hashtag`) a line scan would count.
 */
function section(index: number): string {
  return [
    `## Section ${index}: the *quick* brown \`fox\``,
    '',
    `Text with **bold**, _emphasis_, a [link](https://example.com/${index} "Title ${index}"), a [reference][r${index % 50}] and`,
    `\`inline code\` on a second line, an autolink <https://example.org/${index}>, www.example.com/${index} and &amp;.`,
    '',
    `### Subsection ${index}.1`,
    '',
    '- item one with *emphasis*',
    `- item two with [a link](http://example.net/${index})`,
    '  - nested item #hashtag',
    '',
    '```ts',
    `const value${index} = compute(${index});`,
    '# not a heading',
    '```',
    '',
    '| Name | Value | Note |',
    '| --- | ---: | :-- |',
    `| a${index} | ${index} | ok |`,
    `| b${index} | ${index * 2} | **fine** |`,
    '',
    `> A quote with ![image ${index}](img/${index}.png) inside.`,
    '',
    `Setext heading ${index}`,
    '----------------',
    '',
    '    # indented code',
    '    more code',
    '',
    ...(index % 20 === 0
      ? Array.from({ length: 50 }, (_, label) => `[r${label}]: https://ref.example/${label}\n`)
      : []),
  ].join('\n');
}

/**
 * Writes (once, cached under `bench/data/`) a Markdown document of about `size` bytes.
 *
 * @example
 * ```ts
 * const data = await ensureMarkdownData({ size: 4 * 1024 * 1024, sizeLabel: '4M' });
 * ```
 */
export async function ensureMarkdownData(options: {
  size: number;
  sizeLabel: string;
}): Promise<MarkdownData> {
  const parts: string[] = [];
  let bytes = 0;
  let sections = 0;
  while (bytes < options.size) {
    const text = `${section(sections++)}\n`;
    parts.push(text);
    bytes += Buffer.byteLength(text);
  }
  const path = join(dataDirectory, `markdown-${options.sizeLabel}.md`);
  const existing = await stat(path).catch(() => undefined);
  if (existing?.size !== bytes) {
    await mkdir(dataDirectory, { recursive: true });
    await writeFile(path, parts.join(''));
  }
  return {
    path,
    bytes,
    headingCount: sections * headingsPerSection,
    codeBlockCount: sections * codeBlocksPerSection,
  };
}
