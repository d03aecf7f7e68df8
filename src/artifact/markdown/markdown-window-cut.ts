import type { ParsedMarkdownTokens } from './markdown-token-parse.js';

/**
 * Where a window ends: how many of the buffered lines (after the prefix) it keeps, and the lines
 * to parse ahead of the next window.
 */
export interface WindowCut {
  lineCount: number;
  nextPrefix: readonly string[];
}

/** Blocks a blank line may belong to: a cut there would end them early (front matter too). */
const protectingTypes = new Set(['fence', 'code_block', 'html_block']);

const blank = /^[ \t\r]*$/;
const startsAtColumnZero = /^[^ \t\r]/;

/**
 * Finds where to end a window parsed from `lines` (its prefix, then buffered lines). A safe cut
 * follows a blank line that the parse did not put inside fenced or indented code, an HTML block
 * or front matter, and precedes a line starting at column 0: after a blank line such a line
 * cannot continue any block (no lazy continuation, no list-item continuation, no setext
 * underline or table delimiter of the block before), so parsing the two sides apart gives the
 * same tokens as parsing them together. The last safe cut is taken. Without one, undefined,
 * unless `forced` (the buffer hit its hard limit): then the window ends at the buffer's end
 * inside a top-level code block or table, with a prefix that resumes it in the next window
 * (see resumingPrefix); else after the last unprotected blank line; else at the buffer's
 * end, which may split a paragraph, list item or block quote (a known limit).
 *
 * @example
 * ```ts
 * const cut = findWindowCut(parsedTokens, lines, prefix.length, size >= hardLimit);
 * ```
 */
export function findWindowCut(
  parsed: ParsedMarkdownTokens,
  lines: readonly string[],
  prefixLength: number,
  forced: boolean,
): WindowCut | undefined {
  const { protectedLines, lastBlock } = scanBlocks(parsed, lines.length);
  const isOpenBlank = (index: number) =>
    protectedLines[index] === 0 && blank.test(lines[index] ?? '');
  for (let index = lines.length - 2; index >= prefixLength; index--) {
    if (isOpenBlank(index) && startsAtColumnZero.test(lines[index + 1] ?? '')) {
      return { lineCount: index + 1 - prefixLength, nextPrefix: [] };
    }
  }
  if (!forced) return undefined;
  const whole = lines.length - prefixLength;
  const resume = resumingPrefix(lastBlock, lines);
  if (resume) return { lineCount: whole, nextPrefix: resume };
  for (let index = lines.length - 1; index >= prefixLength; index--) {
    if (isOpenBlank(index)) return { lineCount: index + 1 - prefixLength, nextPrefix: [] };
  }
  return { lineCount: whole, nextPrefix: [] };
}

interface TopLevelBlock {
  type: string;
  startLine: number;
  endLine: number;
  /** The fence's marker (for a fenced code block). */
  markup: string;
}

/**
 * Lines already parsed that put the next window back inside the top-level block the buffer
 * ends in, when that block can be resumed: an open fence's opening line, a table's header and
 * delimiter rows, an indented block's last line and the blank lines after it.
 */
function resumingPrefix(
  block: TopLevelBlock | undefined,
  lines: readonly string[],
): readonly string[] | undefined {
  switch (block?.type) {
    case 'fence':
      return block.endLine === lines.length - 1 && !closesFence(block, lines)
        ? lines.slice(block.startLine, block.startLine + 1)
        : undefined;
    case 'table_open':
      return block.endLine === lines.length - 1
        ? lines.slice(block.startLine, block.startLine + 2)
        : undefined;
    case 'code_block':
      return lines.slice(block.endLine);
    default:
      return undefined;
  }
}

/** Whether a fenced block's last line is its closing fence (markdown-it says not). */
function closesFence(block: TopLevelBlock, lines: readonly string[]): boolean {
  if (block.endLine === block.startLine) return false;
  const last = (lines[block.endLine] ?? '').replace(/^ {0,3}/, '').replace(/[ \t\r]+$/, '');
  const marker = block.markup[0] ?? '`';
  return last.length >= block.markup.length && [...last].every((char) => char === marker);
}

/** Marks lines inside protecting blocks (after their first line) and finds the last top-level block. */
function scanBlocks(parsed: ParsedMarkdownTokens, lineCount: number) {
  const { tokens, lineOf, frontmatterEnd } = parsed;
  const protectedLines = new Uint8Array(lineCount);
  protectedLines.fill(1, 1, frontmatterEnd);
  let lastBlock: TopLevelBlock | undefined;
  for (const token of tokens) {
    const { map } = token;
    if (!map || token.nesting === -1) continue;
    const startLine = lineOf(map[0]);
    const endLine = lineOf(Math.max(map[0], map[1] - 1));
    if (token.level === 0)
      lastBlock = { type: token.type, startLine, endLine, markup: token.markup };
    if (protectingTypes.has(token.type)) protectedLines.fill(1, startLine + 1, endLine + 1);
  }
  return { protectedLines, lastBlock };
}
