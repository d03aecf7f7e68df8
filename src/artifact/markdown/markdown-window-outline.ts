import { literalAutolinks } from './literal-autolinks.js';
import type { PendingLink } from './markdown-link-collector.js';
import { type MarkdownItToken, referenceMarker } from './markdown-token-parse.js';
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
  let rowLine = 0;
  for (const token of tokens) {
    const line = token.map ? documentLine(token.map[0]) : rowLine;
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
        const text = walkInline(token, line, found, heading !== undefined || inHeaderCell);
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
        rowLine = line;
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

/** The text of inline tokens as a reader sees it: markup and HTML dropped, breaks as spaces. */
function plainText(children: readonly MarkdownItToken[] | null): string {
  let text = '';
  for (const child of children ?? []) text += childText(child);
  return text;
}

function childText(child: MarkdownItToken): string {
  switch (child.type) {
    case 'text':
    case 'code_inline':
      return child.content;
    case 'softbreak':
    case 'hardbreak':
      return ' ';
    case 'image':
      return plainText(child.children);
    default:
      return '';
  }
}

const collapsed = (text: string) => text.replace(/\s+/g, ' ').trim();

/** A link being walked; an autolink has no `link` (it is listed when it opens). */
interface OpenLink {
  link: PendingLink | undefined;
  text: string;
}

/**
 * Walks an inline token starting on document line `line`: adds its links and images (each on
 * the line it starts on) to `found` and returns its plain text, whitespace collapsed, when
 * `wantText` (a heading or a table's header cell), else ''.
 */
function walkInline(
  inline: MarkdownItToken,
  line: number,
  found: WindowOutline,
  wantText: boolean,
): string {
  const source = inline.content;
  let text = '';
  let offset = 0;
  let current = line;
  const open: OpenLink[] = [];
  const children = inline.children ?? [];
  for (let index = 0; index < children.length; index++) {
    const child = children[index] as MarkdownItToken;
    const at = child.sourceOffset;
    if (at !== undefined && at >= offset) {
      for (let next = source.indexOf('\n', offset); next !== -1 && next < at; ) {
        current++;
        next = source.indexOf('\n', next + 1);
      }
      offset = at;
    }
    const piece = childText(child);
    if (wantText) text += piece;
    for (const link of open) link.text += piece;
    if (child.type === 'text' && open.length === 0) {
      for (const { text: literal, url } of literalAutolinks(piece)) {
        found.links.push(autolink(current, literal, url));
      }
    } else if (child.type === 'image') {
      found.images.push(pendingLink(current, collapsed(piece), child));
    } else if (child.type === 'link_open') {
      const label = children[index + 1];
      if (child.markup === 'autolink') {
        found.links.push(autolink(current, label?.content ?? '', attribute(child, 'href')));
        open.push({ link: undefined, text: '' });
        continue;
      }
      const link = pendingLink(current, '', child);
      found.links.push(link);
      open.push({ link, text: '' });
    } else if (child.type === 'link_close') {
      const closed = open.pop();
      if (closed?.link) closed.link.text = collapsed(closed.text);
    }
  }
  return wantText ? collapsed(text) : '';
}

function autolink(lineNumber: number, text: string, url: string): PendingLink {
  return { lineNumber, text, url, title: undefined, identifier: undefined };
}

function pendingLink(lineNumber: number, text: string, token: MarkdownItToken): PendingLink {
  const href = attribute(token, token.type === 'image' ? 'src' : 'href');
  const title = attribute(token, 'title');
  if (href.startsWith(referenceMarker)) {
    const identifier = href.slice(referenceMarker.length);
    return { lineNumber, text, url: undefined, title: undefined, identifier };
  }
  return {
    lineNumber,
    text,
    url: href,
    title: title === '' ? undefined : title,
    identifier: undefined,
  };
}

const attribute = (token: MarkdownItToken, name: string) => String(token.attrGet(name) ?? '');

function frontmatterOf(window: MarkdownOutlineWindow): MarkdownFrontmatter | undefined {
  const { frontmatterEnd: end, frontmatterFormat: format } = window.parsed;
  if (end === 0 || format === undefined) return undefined;
  const inside = window.lines.slice(1, end - 1).map((line) => line.replace(/\r$/, ''));
  return { format, start: 0, end, text: inside.join('\n') };
}
