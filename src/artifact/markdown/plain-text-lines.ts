import { throwIfAborted } from '../../shared/spoolforge-error.js';
import type { ArtifactLine } from '../artifact-line.js';
import type { LineSource } from './markdown-definition-scan.js';
import type { MarkdownToken } from './markdown-parse.js';
import type { MarkdownOutline } from './markdown-types.js';
import { type MarkdownWindow, parseWindowSpan, windowLineNumber } from './markdown-windows.js';
import { hidesText, plainTextOf } from './plain-text-of.js';

/**
 * The plain text of lines `[start, end)`: markup, link destinations, HTML, front matter and
 * definitions removed, code kept, table cells separated by a tab. One entry per source line
 * that has text, with its real line number. Only the windows holding the range are parsed
 * again, one at a time.
 *
 * @example
 * ```ts
 * for await (const line of plainTextLines(artifact, outline, 100, 200)) console.log(line.text);
 * ```
 */
export async function* plainTextLines(
  source: LineSource,
  outline: MarkdownOutline,
  start: number,
  end: number,
  signal?: AbortSignal,
): AsyncGenerator<ArtifactLine> {
  for (const span of outline.windows) {
    if (span.startLine + span.lineCount <= start) continue;
    if (span.startLine >= end) return;
    throwIfAborted(signal);
    const window = await parseWindowSpan(source, span, outline.seeds, signal);
    for (const line of windowText(window)) {
      if (line.lineNumber >= start && line.lineNumber < end) yield line;
    }
  }
}

/** Every line of one window that has text (prefix lines excluded). */
function windowText(window: MarkdownWindow): ArtifactLine[] {
  const { text, events } = window.parsed;
  const pieces = new Map<number, string[]>();
  let hiddenBy: MarkdownToken | undefined;
  let cellsInRow = 0;
  const append = (lineNumber: number, piece: string) => {
    if (lineNumber < window.startLine) return;
    const parts = pieces.get(lineNumber);
    if (parts) parts.push(piece);
    else pieces.set(lineNumber, [piece]);
  };
  for (const [kind, token] of events) {
    if (kind === 'exit') {
      if (token === hiddenBy) hiddenBy = undefined;
      continue;
    }
    if (hiddenBy !== undefined) continue;
    // GFM's token types are not in micromark's typed map.
    const type: string = token.type;
    const lineNumber = windowLineNumber(window, token.start.offset);
    if (type === 'tableRow') cellsInRow = 0;
    if (type === 'tableHeader' || type === 'tableData') {
      if (cellsInRow++ > 0) append(lineNumber, '\t');
    }
    const plain = plainTextOf(token, text);
    // A character reference can stand for a line ending; it stays on its line.
    if (plain !== undefined) append(lineNumber, plain.replace(/[\r\n]/g, ' '));
    if (hidesText(type)) hiddenBy = token;
  }
  const lines: ArtifactLine[] = [];
  for (const [lineNumber, parts] of pieces) {
    // Trailing space is where a line ending was.
    const joined = parts.join('').trimEnd();
    if (joined.trim() !== '') lines.push({ lineNumber, text: joined });
  }
  return lines.sort((left, right) => left.lineNumber - right.lineNumber);
}
