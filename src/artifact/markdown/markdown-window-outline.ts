import { type InlineWalk, walkInline } from './markdown-inline-walk.js';
import type { PendingLink } from './markdown-link-collector.js';
import type {
  MarkdownCodeBlock,
  MarkdownDefinition,
  MarkdownFrontmatter,
  MarkdownHeading,
  MarkdownTable,
} from './markdown-types.js';
import type { MarkdownOutlineWindow } from './markdown-windows.js';
import { decodeMarkdownString } from './plain-text-of.js';

/**
 * What one window holds. A code block or table that began in the window's prefix (a forced cut
 * fell inside it) is reported as a continuation of the previous window's last one.
 *
 * @example
 * ```ts
 * const { headings, continuedTable } = outlineWindow(window);
 * ```
 */
export interface WindowOutline {
  frontmatter: MarkdownFrontmatter | undefined;
  headings: MarkdownHeading[];
  codeBlocks: MarkdownCodeBlock[];
  links: PendingLink[];
  images: PendingLink[];
  tables: MarkdownTable[];
  definitions: MarkdownDefinition[];
  continuedCodeBlock: MarkdownCodeBlock | undefined;
  continuedTable: MarkdownTable | undefined;
}

/**
 * One walk over a window's tokens, collecting front matter, headings, code blocks, links,
 * images, tables and definitions with their document line numbers.
 *
 * @example
 * ```ts
 * const found = outlineWindow(window);
 * console.log(found.headings.map((heading) => heading.text));
 * ```
 */
export function outlineWindow(window: MarkdownOutlineWindow): WindowOutline {
  const { tokens, lineOf, definitions: parsedDefinitions } = window.parsed;
  const found: WindowOutline = {
    frontmatter: frontmatterOf(window),
    headings: [],
    codeBlocks: [],
    links: [],
    images: [],
    tables: [],
    definitions: [],
    continuedCodeBlock: undefined,
    continuedTable: undefined,
  };
  const documentLine = (markdownItLine: number) =>
    window.startLine + lineOf(markdownItLine) - window.prefix.length;
  const windowEnd = window.startLine + window.endIndex - window.prefix.length;
  const inPrefix = (line: number) => line < window.startLine;
  let heading: MarkdownHeading | undefined;
  let table: MarkdownTable | undefined;
  let inHeaderCell = false;
  let inBody = false;
  // Table cells have no line map of their own: they are on their row's line.
  let rowLine = 0;
  const walk: InlineWalk = { links: found.links, images: found.images, documentLine };
  for (const token of tokens) {
    const markdownItLine = token.map ? token.map[0] : rowLine;
    const line = documentLine(markdownItLine);
    if (token.map && token.nesting !== -1 && line >= windowEnd) break;
    switch (token.type) {
      case 'heading_open':
        heading = {
          lineNumber: line,
          depth: Number(token.tag.slice(1)),
          text: '',
          style: token.markup.startsWith('#') ? 'atx' : 'setext',
        };
        break;
      case 'heading_close':
        if (heading) found.headings.push(heading);
        heading = undefined;
        break;
      case 'inline': {
        const wantText = heading !== undefined || inHeaderCell;
        const text = walkInline(token, markdownItLine, walk, { wantText, inLabel: false });
        if (heading) heading.text = text;
        if (inHeaderCell) table?.columns.push(text);
        break;
      }
      case 'fence':
      case 'code_block': {
        const fenced = token.type === 'fence';
        const [lang, meta] = fenced ? infoOf(token.info) : [undefined, undefined];
        const end = documentLine(Math.max(token.map?.[0] ?? 0, (token.map?.[1] ?? 1) - 1)) + 1;
        const block = { start: line, end, lang, meta, fenced };
        if (inPrefix(line)) found.continuedCodeBlock = block;
        else found.codeBlocks.push(block);
        break;
      }
      case 'table_open': {
        const end = documentLine(Math.max(token.map?.[0] ?? 0, (token.map?.[1] ?? 1) - 1)) + 1;
        table = { start: line, end, columns: [], rowCount: 0 };
        inBody = false;
        break;
      }
      case 'tbody_open':
        inBody = true;
        break;
      case 'tr_open':
        rowLine = markdownItLine;
        if (table && inBody && line < windowEnd) table.rowCount++;
        break;
      case 'th_open':
      case 'th_close':
        inHeaderCell = token.nesting === 1;
        break;
      case 'table_close':
        if (!table) break;
        if (inPrefix(table.start)) found.continuedTable = table;
        else found.tables.push(table);
        table = undefined;
        break;
    }
  }
  for (const { line, identifier, url, title } of parsedDefinitions) {
    const lineNumber = documentLine(line);
    if (lineNumber < windowEnd) found.definitions.push({ identifier, lineNumber, url, title });
  }
  return found;
}

/** A fence's info string split at its first whitespace, both decoded; undefined when empty. */
function infoOf(info: string): [string | undefined, string | undefined] {
  const trimmed = info.trim();
  if (trimmed === '') return [undefined, undefined];
  const space = trimmed.search(/[ \t]/);
  if (space === -1) return [decodeMarkdownString(trimmed), undefined];
  const meta = trimmed.slice(space).trim();
  return [decodeMarkdownString(trimmed.slice(0, space)), decodeMarkdownString(meta)];
}

function frontmatterOf(window: MarkdownOutlineWindow): MarkdownFrontmatter | undefined {
  const { frontmatterEnd: end, frontmatterFormat: format } = window.parsed;
  if (end === 0 || format === undefined) return undefined;
  const inside = window.lines.slice(1, end - 1).map((line) => line.replace(/\r$/, ''));
  return { format, start: 0, end, text: inside.join('\n') };
}
