import { literalAutolinks } from './literal-autolinks.js';
import type { PendingLink } from './markdown-link-collector.js';
import { type MarkdownItToken, referenceMarker } from './markdown-token-parse.js';
import { decodeMarkdownString } from './plain-text-of.js';

/**
 * Where an inline walk puts what it finds, and how it numbers lines.
 *
 * @example
 * ```ts
 * const walk: InlineWalk = { links: [], images: [], documentLine: (line) => startLine + line };
 * ```
 */
export interface InlineWalk {
  links: PendingLink[];
  images: PendingLink[];
  /** The 0-based document line of a markdown-it line. */
  documentLine(markdownItLine: number): number;
}

/**
 * Options for {@link walkInline}.
 */
export interface InlineWalkOptions {
  /** Gather the plain text (for a heading or a table's header cell). */
  wantText: boolean;
  /** The token is an image's label: literal autolinks are not links there. */
  inLabel: boolean;
}

/** A link being walked; an autolink has no `link` (it is listed when it opens). */
interface OpenLink {
  link: PendingLink | undefined;
  text: string;
}

/**
 * Walks an inline token (or an image, whose children are its label) that starts on
 * markdown-it line `markdownItLine`: adds its links and images, each on the line it starts on,
 * and returns its plain text, whitespace collapsed, when `wantText` (else '').
 *
 * @example
 * ```ts
 * const text = walkInline(inline, inline.map?.[0] ?? 0, walk, { wantText: true, inLabel: false });
 * ```
 */
export function walkInline(
  inline: MarkdownItToken,
  markdownItLine: number,
  walk: InlineWalk,
  options: InlineWalkOptions,
): string {
  const source = inline.content;
  let text = '';
  let offset = 0;
  let line = markdownItLine;
  let run = '';
  let runLine = line;
  const open: OpenLink[] = [];
  // GFM's literal autolinks are found in each run of text as written (entities undecoded).
  const flushRun = () => {
    if (run === '') return;
    for (const { text: literal, url } of literalAutolinks(run)) {
      walk.links.push(autolink(walk.documentLine(runLine), literal, url));
    }
    run = '';
  };
  const children = inline.children ?? [];
  for (let index = 0; index < children.length; index++) {
    const child = children[index] as MarkdownItToken;
    const at = child.sourceOffset;
    if (at !== undefined && at >= offset) {
      for (let next = source.indexOf('\n', offset); next !== -1 && next < at; ) {
        line++;
        next = source.indexOf('\n', next + 1);
      }
      offset = at;
    }
    const piece = childText(child);
    if (options.wantText) text += piece;
    for (const link of open) link.text += piece;
    if (child.type === 'text' || child.type === 'text_special') {
      if (open.length > 0 || options.inLabel) continue;
      if (run === '') runLine = line;
      run += child.info === 'entity' ? child.markup : child.content;
      continue;
    }
    flushRun();
    const lineNumber = walk.documentLine(line);
    if (child.type === 'image') {
      walk.images.push(pendingLink(lineNumber, collapsed(piece), child));
      walkInline(child, line, walk, { wantText: false, inLabel: true });
    } else if (child.type === 'link_open') {
      if (child.markup === 'autolink') {
        const literal = children[index + 1]?.content ?? '';
        walk.links.push(autolink(lineNumber, literal, attribute(child, 'href')));
        open.push({ link: undefined, text: '' });
        continue;
      }
      const link = pendingLink(lineNumber, '', child);
      walk.links.push(link);
      open.push({ link, text: '' });
    } else if (child.type === 'link_close') {
      const closed = open.pop();
      if (closed?.link) closed.link.text = collapsed(closed.text);
    }
  }
  flushRun();
  return options.wantText ? collapsed(text) : '';
}

/**
 * The plain text of inline tokens: markup and HTML dropped, breaks as spaces, and character
 * references decoded as plain text decodes them.
 *
 * @example
 * ```ts
 * plainText(image.children); // an image's alt text
 * ```
 */
export function plainText(children: readonly MarkdownItToken[] | null): string {
  let text = '';
  for (const child of children ?? []) text += childText(child);
  return text;
}

function childText(child: MarkdownItToken): string {
  switch (child.type) {
    case 'text':
    case 'code_inline':
      return child.content;
    case 'text_special':
      return child.info === 'entity' ? decodeMarkdownString(child.markup) : child.content;
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
