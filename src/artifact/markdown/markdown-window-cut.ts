import { lineIndexAt, type ParsedMarkdown } from './markdown-parse.js';

/**
 * Where a window ends: how many of the buffered lines (after the prefix) it keeps, and the lines
 * to parse ahead of the next window.
 */
export interface WindowCut {
  lineCount: number;
  nextPrefix: readonly string[];
}

/** Blocks a blank line may belong to: a cut there would end them early. */
const protectingTypes = new Set(['codeFenced', 'codeIndented', 'htmlFlow', 'yaml', 'toml']);

/** Tokens between top-level blocks. */
const separatorTypes = new Set(['lineEnding', 'lineEndingBlank', 'linePrefix', 'whitespace']);

const blank = /^[ \t\r]*$/;
const startsAtColumnZero = /^[^ \t\r]/;

/**
 * Finds where to end a window parsed from `lines` (its prefix, then buffered lines). A safe cut
 * follows a blank line that micromark did not put inside fenced or indented code, an HTML block
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
 * const cut = findWindowCut(parsed, lines, prefix.length, size >= hardLimit);
 * ```
 */
export function findWindowCut(
  parsed: ParsedMarkdown,
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
  /** How many fences a code block has: 1 when it is still open. */
  fences: number;
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
    case 'codeFenced':
      return block.fences === 1 ? lines.slice(block.startLine, block.startLine + 1) : undefined;
    case 'table':
      return block.endLine === lines.length - 1
        ? lines.slice(block.startLine, block.startLine + 2)
        : undefined;
    case 'codeIndented':
      return lines.slice(block.endLine);
    default:
      return undefined;
  }
}

/** Marks lines inside protecting blocks (after their first line) and finds the last top-level block. */
function scanBlocks(parsed: ParsedMarkdown, lineCount: number) {
  const { events, lineStarts } = parsed;
  const protectedLines = new Uint8Array(lineCount);
  let lastBlock: TopLevelBlock | undefined;
  let depth = 0;
  for (const [kind, token] of events) {
    if (kind === 'exit') {
      depth--;
      if (depth === 0 && token.type === lastBlock?.type) {
        lastBlock.endLine = lineIndexAt(
          lineStarts,
          Math.max(token.start.offset, token.end.offset - 1),
        );
      }
      continue;
    }
    if (depth === 0 && !separatorTypes.has(token.type)) {
      const startLine = lineIndexAt(lineStarts, token.start.offset);
      lastBlock = { type: token.type, startLine, endLine: startLine, fences: 0 };
    } else if (depth === 1 && token.type === 'codeFencedFence' && lastBlock) {
      lastBlock.fences++;
    }
    if (protectingTypes.has(token.type)) {
      const first = lineIndexAt(lineStarts, token.start.offset);
      const last = lineIndexAt(lineStarts, Math.max(token.start.offset, token.end.offset - 1));
      protectedLines.fill(1, first + 1, last + 1);
    }
    depth++;
  }
  return { protectedLines, lastBlock };
}
