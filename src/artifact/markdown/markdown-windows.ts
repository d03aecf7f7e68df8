import { throwIfAborted } from '../../shared/spoolforge-error.js';
import type { LineSource } from './markdown-definition-scan.js';
import { lineIndexAt, type ParsedMarkdown, parseMarkdownLines } from './markdown-parse.js';
import { type ParsedMarkdownTokens, parseMarkdownTokens } from './markdown-token-parse.js';
import type { DefinitionSeeds, MarkdownWindowSpan } from './markdown-types.js';
import { findWindowCut } from './markdown-window-cut.js';

/**
 * A window and its micromark parse (for its plain text). Tokens starting at or after
 * `endOffset` are not the window's.
 *
 * @example
 * ```ts
 * const textWindow = await parseWindowSpan(artifact, outline.windows[0]!, outline.seeds);
 * ```
 */
export interface MarkdownWindow extends MarkdownWindowSpan {
  readonly parsed: ParsedMarkdown;
  readonly endOffset: number;
}

/**
 * A window and its markdown-it parse (for the outline): `lines` are the parsed lines (prefix
 * first). The parse may have run past the window (the lines after its cut are parsed again
 * with the next window): blocks starting at or after line `endIndex` of `lines` are not its.
 *
 * @example
 * ```ts
 * for await (const window of markdownWindows(artifact, options)) outlineWindow(window);
 * ```
 */
export interface MarkdownOutlineWindow extends MarkdownWindowSpan {
  readonly lines: readonly string[];
  readonly parsed: ParsedMarkdownTokens;
  readonly endIndex: number;
}

/**
 * Options for {@link markdownWindows}.
 */
export interface MarkdownWindowOptions {
  /** Lines are parsed once this much text (UTF-16 code units, ≈ bytes) is buffered. */
  windowBytes: number;
  seeds: DefinitionSeeds;
  signal?: AbortSignal | undefined;
}

/** A buffer this many windows long is cut even without a safe point (see findWindowCut). */
const hardLimitWindows = 4;

/**
 * Streams a Markdown document as windows of whole lines parsed by markdown-it, holding at most
 * `hardLimitWindows × windowBytes` of text (and its tokens) at a time. Each window
 * ends at a point where parsing apart gives the tokens parsing together would (see
 * {@link findWindowCut}); front matter is recognised in the first window only.
 *
 * @example
 * ```ts
 * for await (const window of markdownWindows(artifact, { windowBytes: 65_536, seeds })) {
 *   console.log(window.startLine, window.lineCount);
 * }
 * ```
 */
export async function* markdownWindows(
  source: LineSource,
  options: MarkdownWindowOptions,
): AsyncGenerator<MarkdownOutlineWindow> {
  const { windowBytes, seeds, signal } = options;
  const hardLimit = windowBytes * hardLimitWindows;
  let startLine = 0;
  let prefix: readonly string[] = [];
  let buffer: string[] = [];
  let size = 0;
  let threshold = windowBytes;
  for await (const { text } of source.lines(0, Number.POSITIVE_INFINITY, { signal })) {
    buffer.push(text);
    size += text.length + 1;
    if (size < threshold) continue;
    throwIfAborted(signal);
    const lines = [...prefix, ...buffer];
    const parsed = await parseTokens(lines, startLine, prefix, seeds);
    const cut = findWindowCut(parsed, lines, prefix.length, size >= hardLimit);
    if (cut === undefined) {
      threshold = hardLimit;
      continue;
    }
    const endIndex = prefix.length + cut.lineCount;
    yield { startLine, lineCount: cut.lineCount, prefix, lines, parsed, endIndex };
    startLine += cut.lineCount;
    buffer = buffer.slice(cut.lineCount);
    size = buffer.reduce((total, line) => total + line.length + 1, 0);
    prefix = cut.nextPrefix;
    threshold = windowBytes;
  }
  if (buffer.length === 0) return;
  throwIfAborted(signal);
  const lines = [...prefix, ...buffer];
  const parsed = await parseTokens(lines, startLine, prefix, seeds);
  yield { startLine, lineCount: buffer.length, prefix, lines, parsed, endIndex: lines.length };
}

/**
 * Parses a window of an earlier pass again with micromark (to read its text).
 *
 * @example
 * ```ts
 * const window = await parseWindowSpan(artifact, outline.windows[3]!, outline.seeds);
 * ```
 */
export async function parseWindowSpan(
  source: LineSource,
  span: MarkdownWindowSpan,
  seeds: DefinitionSeeds,
  signal?: AbortSignal,
): Promise<MarkdownWindow> {
  const lines = [...span.prefix];
  const end = span.startLine + span.lineCount;
  for await (const { text } of source.lines(span.startLine, end, { signal })) lines.push(text);
  const parsed = await parse(lines, span.startLine, span.prefix, seeds);
  return { ...span, parsed, endOffset: parsed.text.length };
}

/**
 * The 0-based document line holding `offset` of a window's parse; lines of its prefix come out
 * before `window.startLine`.
 *
 * @example
 * ```ts
 * const lineNumber = windowLineNumber(textWindow, token.start.offset);
 * ```
 */
export function windowLineNumber(window: MarkdownWindow, offset: number): number {
  return window.startLine + lineIndexAt(window.parsed.lineStarts, offset) - window.prefix.length;
}

function parse(
  lines: readonly string[],
  startLine: number,
  prefix: readonly string[],
  seeds: DefinitionSeeds,
): Promise<ParsedMarkdown> {
  return parseMarkdownLines(lines, { seeds, frontmatter: startsDocument(startLine, prefix) });
}

function parseTokens(
  lines: readonly string[],
  startLine: number,
  prefix: readonly string[],
  seeds: DefinitionSeeds,
): Promise<ParsedMarkdownTokens> {
  return parseMarkdownTokens(lines, { seeds, frontmatter: startsDocument(startLine, prefix) });
}

/** Front matter is recognised only at the very start of the document. */
const startsDocument = (startLine: number, prefix: readonly string[]) =>
  startLine === 0 && prefix.length === 0;
