import type { MarkdownToken } from './markdown-parse.js';

/**
 * Tokens whose source is shown as is in plain text: prose, code, autolinks, task list boxes.
 * A footnote call keeps its `[^label]` so the reader sees where the note is referenced.
 */
const verbatimTokenTypes = new Set([
  'data',
  'codeTextData',
  'codeFlowValue',
  'characterEscapeValue',
  'autolinkProtocol',
  'autolinkEmail',
  'literalAutolinkWww',
  'literalAutolinkHttp',
  'literalAutolinkEmail',
  'taskListCheck',
  'gfmFootnoteCall',
]);

/**
 * Tokens whose `data` inside is markup or metadata, not text: link destinations and titles,
 * reference labels, definitions, fence info strings, footnote labels, and footnote calls (shown
 * whole).
 */
const hiddenTokenTypes = new Set([
  'resource',
  'reference',
  'definition',
  'codeFencedFence',
  'gfmFootnoteDefinitionLabel',
  'gfmFootnoteCall',
]);

/**
 * The plain text a token stands for when entered, or undefined for markup and for tokens whose
 * children carry the text. A line ending is a space (it joins the lines of a heading or label,
 * and a lone `\r` ends a Markdown line inside one of ours).
 *
 * @example
 * ```ts
 * plainTextOf(token, text); // '&' for the characterReference `&amp;`, undefined for `*`
 * ```
 */
export function plainTextOf(token: MarkdownToken, text: string): string | undefined {
  // GFM's token types are not in micromark's typed map.
  const type: string = token.type;
  if (type === 'lineEnding') return ' ';
  const verbatim = verbatimTokenTypes.has(type);
  if (!verbatim && type !== 'characterReference') return undefined;
  const raw = text.slice(token.start.offset, token.end.offset);
  return verbatim ? raw : decodeMarkdownString(raw);
}

/**
 * Whether the text inside a token is hidden from plain text (see {@link plainTextOf}).
 *
 * @example
 * ```ts
 * hidesText('resource'); // true: `(url "title")` of a link is not its text
 * ```
 */
export function hidesText(type: string): boolean {
  return hiddenTokenTypes.has(type);
}

/** The named references worth decoding; others are kept as written. */
const namedReferences: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  copy: '©',
  reg: '®',
  hellip: '…',
  mdash: '—',
  ndash: '–',
};

/**
 * A Markdown string (URL, title, info string) as meant: backslash escapes of ASCII punctuation
 * and numeric character references decoded, and the common named ones (`&amp;`, `&lt;`, …);
 * other named references are left as written.
 *
 * @example
 * ```ts
 * decodeMarkdownString('a\\_b &amp; &#67;'); // 'a_b & C'
 * ```
 */
export function decodeMarkdownString(raw: string): string {
  return raw.replace(
    /\\([!-/:-@[-`{-~])|&(?:#[xX]([0-9a-fA-F]{1,6})|#(\d{1,7})|([a-zA-Z][a-zA-Z0-9]{1,31}));/g,
    (whole, escaped?: string, hex?: string, decimal?: string, name?: string) => {
      if (escaped !== undefined) return escaped;
      if (name !== undefined) return namedReferences[name] ?? whole;
      const code = Number.parseInt(hex ?? decimal ?? '0', hex === undefined ? 10 : 16);
      return code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)
        ? '\ufffd'
        : String.fromCodePoint(code);
    },
  );
}
