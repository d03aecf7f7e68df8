import type { postprocess } from 'micromark';
import type { DefinitionSeeds } from './markdown-types.js';

/**
 * One micromark event: entering or exiting a token, with the tokenizer that made it.
 *
 * @example
 * ```ts
 * for (const [kind, token] of parsed.events) if (kind === 'enter') console.log(token.type);
 * ```
 */
export type MarkdownEvent = ReturnType<typeof postprocess>[number];

/**
 * A micromark token: its type and its start and end points (`offset` indexes the parsed text).
 *
 * @example
 * ```ts
 * const raw = parsed.text.slice(token.start.offset, token.end.offset);
 * ```
 */
export type MarkdownToken = MarkdownEvent[1];

/**
 * Lines parsed by micromark: the text they were joined into, where each line starts in it, and
 * the events.
 *
 * @example
 * ```ts
 * const parsed = parseMarkdownLines(['# Title', '', 'text'], { seeds, frontmatter: true });
 * ```
 */
export interface ParsedMarkdown {
  readonly text: string;
  /** The offset in `text` where each line starts. */
  readonly lineStarts: readonly number[];
  readonly events: readonly MarkdownEvent[];
}

/**
 * Options for {@link parseMarkdownLines}.
 */
export interface ParseMarkdownOptions {
  /** Labels to treat as defined before parsing (definitions may follow their use). */
  seeds: DefinitionSeeds;
  /** Recognise front matter: only at the start of the document, never of a later window. */
  frontmatter: boolean;
}

/** micromark and its extensions, loaded on first parse: ~10 MiB a process without Markdown need not pay. */
let parser: ReturnType<typeof loadParser> | undefined;

async function loadParser() {
  const [micromark, { frontmatter }, { gfm }] = await Promise.all([
    import('micromark'),
    import('micromark-extension-frontmatter'),
    import('micromark-extension-gfm'),
  ]);
  return {
    ...micromark,
    withFrontmatter: [gfm(), frontmatter(['yaml', 'toml'])],
    withoutFrontmatter: [gfm()],
  };
}

/**
 * micromark only calls `push` and `includes` on its list of defined labels; a Set behind them
 * keeps a document with many thousands of definitions linear instead of quadratic.
 */
class IdentifierList extends Array<string> {
  static override get [Symbol.species]() {
    return Array;
  }
  readonly #identifiers = new Set<string>();

  constructor(identifiers: Iterable<string>) {
    super();
    // One push per label: spreading many thousands of arguments would overflow the stack.
    for (const identifier of identifiers) this.push(identifier);
  }

  override push(...identifiers: string[]): number {
    for (const identifier of identifiers) this.#identifiers.add(identifier);
    return super.push(...identifiers);
  }

  override includes(identifier: string): boolean {
    return this.#identifiers.has(identifier);
  }
}

/**
 * micromark resolves emphasis and links by splicing its event list, quadratic in a paragraph:
 * one 1 MB line of links and emphasis (a minified page converted to Markdown) took minutes and
 * 1 GB. A longer line that starts as paragraph text is parsed as paragraphs of about this size,
 * split at whitespace; only a construct that crosses a split is lost (and an HTML block such a
 * line is in ends at the first split), and offsets still fall on the line (see lineStarts).
 */
const maxParsedLineChars = 32 * 1024;

/**
 * A long line with a blank line (`\n\n`) after every piece of at most `maxParsedLineChars`,
 * each piece after the first starting where no block can: never `#`, `-`, `>`, `|`, a list
 * number or a `[label]:` that would make a heading, list, quote, table or definition of it.
 */
function inPieces(line: string): string {
  const pieces: string[] = [];
  let start = 0;
  while (line.length - start > maxParsedLineChars) {
    let space = line.lastIndexOf(' ', start + maxParsedLineChars);
    while (space > start && !startsPlainText(line, space + 1))
      space = line.lastIndexOf(' ', space - 1);
    if (space <= start) break; // no safe point: the rest is parsed whole
    pieces.push(line.slice(start, space + 1));
    start = space + 1;
  }
  pieces.push(line.slice(start));
  return pieces.join('\n\n');
}

/** What can open a block at the start of a line: a piece never starts with it. */
const blockStart = /^(?:[#>\-+*|=`~<:\s]|\d+[.)]|\[[^\]]*\]:)/;
const startsPlainText = (line: string, at: number) =>
  at < line.length && !blockStart.test(line.slice(at, at + 64));

/**
 * Parses lines (each given without its `\n`) with CommonMark, GFM and, optionally, YAML/TOML
 * front matter. Positions are derived from token offsets: micromark also ends a line at a lone
 * `\r`, so its own line numbers can disagree with ours (`\n` only).
 *
 * @example
 * ```ts
 * const { events, lineStarts } = await parseMarkdownLines(lines, { seeds, frontmatter: startLine === 0 });
 * ```
 */
export async function parseMarkdownLines(
  lines: readonly string[],
  options: ParseMarkdownOptions,
): Promise<ParsedMarkdown> {
  parser ??= loadParser();
  const { parse, postprocess, preprocess, withFrontmatter, withoutFrontmatter } = await parser;
  // micromark skips a leading byte order mark without counting it in offsets: drop it first.
  const first = lines[0];
  const parsedLines = first?.startsWith('\uFEFF') ? [first.slice(1), ...lines.slice(1)] : lines;
  const lineStarts: number[] = [];
  const pieces: string[] = [];
  let offset = 0;
  for (const line of parsedLines) {
    // Only a line that starts as paragraph text at column 0: one inside a list item, an
    // indented code block or a table keeps its block.
    const parsed =
      line.length > maxParsedLineChars && startsPlainText(line, 0) ? inPieces(line) : line;
    lineStarts.push(offset);
    pieces.push(parsed);
    offset += parsed.length + 1;
  }
  const text = `${pieces.join('\n')}\n`;
  const document = parse({
    extensions: options.frontmatter ? withFrontmatter : withoutFrontmatter,
  });
  document.defined = new IdentifierList(options.seeds.definitions);
  (document as { gfmFootnotes?: string[] }).gfmFootnotes = new IdentifierList(
    options.seeds.footnotes,
  );
  const events = postprocess(document.document().write(preprocess()(text, undefined, true)));
  return { text, lineStarts, events };
}

/**
 * The index of the line holding `offset`.
 *
 * @example
 * ```ts
 * lineIndexAt([0, 8, 9], 8); // 1
 * ```
 */
export function lineIndexAt(lineStarts: readonly number[], offset: number): number {
  let low = 0;
  let high = lineStarts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((lineStarts[middle] ?? 0) <= offset) low = middle;
    else high = middle - 1;
  }
  return low;
}

/**
 * A label normalized as CommonMark matches references: whitespace runs collapsed to one space,
 * trimmed, case folded.
 *
 * @example
 * ```ts
 * normalizeIdentifier(' Foo\n  Bar '); // 'FOO BAR'
 * ```
 */
export function normalizeIdentifier(label: string): string {
  return label
    .replace(/[\t\n\r ]+/g, ' ')
    .replace(/^ | $/g, '')
    .toLowerCase()
    .toUpperCase();
}
