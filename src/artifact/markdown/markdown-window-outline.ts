import { LinkCollector, type PendingLink } from './markdown-link-collector.js';
import type { MarkdownToken } from './markdown-parse.js';
import type {
  MarkdownCodeBlock,
  MarkdownDefinition,
  MarkdownFrontmatter,
  MarkdownHeading,
  MarkdownTable,
} from './markdown-types.js';
import { type MarkdownWindow, windowLineNumber } from './markdown-windows.js';
import { decodeMarkdownString, hidesText, plainTextOf } from './plain-text-of.js';

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

/** Plain text gathered while a heading, link label or table cell is open. */
class Capture {
  readonly parts: string[] = [];
  get text(): string {
    return this.parts.join('').replace(/\s+/g, ' ').trim();
  }
}

/**
 * One walk over a window's events, collecting front matter, headings, code blocks, links,
 * images, tables and definitions with their document line numbers.
 *
 * @example
 * ```ts
 * const found = outlineWindow(window);
 * console.log(found.headings.map((heading) => heading.text));
 * ```
 */
export function outlineWindow(window: MarkdownWindow): WindowOutline {
  const { text, events } = window.parsed;
  let frontmatter: MarkdownFrontmatter | undefined;
  const headings: MarkdownHeading[] = [];
  const codeBlocks: MarkdownCodeBlock[] = [];
  const tables: MarkdownTable[] = [];
  let continuedCodeBlock: MarkdownCodeBlock | undefined;
  let continuedTable: MarkdownTable | undefined;
  const raw = (token: MarkdownToken) => text.slice(token.start.offset, token.end.offset);
  const firstLine = (token: MarkdownToken) => windowLineNumber(window, token.start.offset);
  const endLine = (token: MarkdownToken) =>
    windowLineNumber(window, Math.max(token.start.offset, token.end.offset - 1)) + 1;
  const inPrefix = (token: MarkdownToken) => firstLine(token) < window.startLine;
  const captures: Capture[] = [];
  let hiddenBy: MarkdownToken | undefined;
  let heading: MarkdownHeading | undefined;
  let codeBlock: MarkdownCodeBlock | undefined;
  let table: MarkdownTable | undefined;
  let inTableBody = false;
  const linkCollector = new LinkCollector({ raw, lineOf: firstLine });

  const open = () => captures.push(new Capture());
  // Captures nest as their tokens do: the one to close is the last opened.
  const close = (): string => captures.pop()?.text ?? '';

  const enter = (token: MarkdownToken) => {
    // GFM's and front matter's token types are not in micromark's typed map.
    const type: string = token.type;
    if (hiddenBy === undefined) {
      const plain = captures.length > 0 ? plainTextOf(token, text) : undefined;
      if (plain !== undefined) for (const capture of captures) capture.parts.push(plain);
      if (hidesText(type)) hiddenBy = token;
    }
    linkCollector.enter(token);
    switch (type) {
      case 'yaml':
      case 'toml':
        frontmatter = frontmatterOf(window, token, type);
        break;
      case 'atxHeading':
      case 'setextHeading':
        heading = { lineNumber: firstLine(token), depth: 0, text: '', style: 'atx' };
        if (type === 'setextHeading') heading.style = 'setext';
        break;
      case 'atxHeadingSequence':
        if (heading?.depth === 0) heading.depth = token.end.offset - token.start.offset;
        break;
      case 'setextHeadingLineSequence':
        if (heading) heading.depth = text[token.start.offset] === '=' ? 1 : 2;
        break;
      case 'atxHeadingText':
      case 'setextHeadingText':
      case 'tableHeader':
      case 'labelText':
        open();
        break;
      case 'codeFenced':
      case 'codeIndented':
        codeBlock = {
          start: firstLine(token),
          end: 0,
          lang: undefined,
          meta: undefined,
          fenced: type === 'codeFenced',
        };
        break;
      case 'codeFencedFenceInfo':
        if (codeBlock) codeBlock.lang = decodeMarkdownString(raw(token));
        break;
      case 'codeFencedFenceMeta':
        if (codeBlock) codeBlock.meta = decodeMarkdownString(raw(token));
        break;
      case 'table':
        table = { start: firstLine(token), end: 0, columns: [], rowCount: 0 };
        break;
      case 'tableHead':
      case 'tableBody':
        inTableBody = type === 'tableBody';
        break;
      case 'tableRow':
        if (table && inTableBody) table.rowCount++;
        break;
    }
  };

  const exit = (token: MarkdownToken) => {
    if (token === hiddenBy) hiddenBy = undefined;
    const type: string = token.type;
    linkCollector.exit(type);
    switch (type) {
      case 'atxHeadingText':
      case 'setextHeadingText': {
        const headingText = close();
        if (heading) heading.text = headingText;
        break;
      }
      case 'atxHeading':
      case 'setextHeading':
        if (heading) headings.push(heading);
        heading = undefined;
        break;
      case 'tableHeader': {
        const cell = close();
        table?.columns.push(cell);
        break;
      }
      case 'codeFenced':
      case 'codeIndented':
        if (!codeBlock) break;
        codeBlock.end = endLine(token);
        if (inPrefix(token)) continuedCodeBlock = codeBlock;
        else codeBlocks.push(codeBlock);
        codeBlock = undefined;
        break;
      case 'labelText':
        linkCollector.labelClosed(close());
        break;
      case 'table':
        if (!table) break;
        table.end = endLine(token);
        if (inPrefix(token)) continuedTable = table;
        else tables.push(table);
        table = undefined;
        break;
    }
  };

  for (const [kind, token] of events) {
    if (kind === 'enter') {
      if (token.start.offset >= window.endOffset) break;
      enter(token);
    } else {
      exit(token);
    }
  }
  const { links, images, definitions } = linkCollector;
  return {
    frontmatter,
    headings,
    codeBlocks,
    links,
    images,
    tables,
    definitions,
    continuedCodeBlock,
    continuedTable,
  };
}

function frontmatterOf(
  window: MarkdownWindow,
  token: MarkdownToken,
  format: 'yaml' | 'toml',
): MarkdownFrontmatter {
  const start = windowLineNumber(window, token.start.offset);
  const end = windowLineNumber(window, token.end.offset - 1) + 1;
  const { text, lineStarts } = window.parsed;
  const inside = text.slice(lineStarts[start + 1] ?? text.length, (lineStarts[end - 1] ?? 1) - 1);
  return { format, start, end, text: inside.replace(/\r$/gm, '') };
}
