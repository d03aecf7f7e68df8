import type { ArtifactLine } from '../artifact/artifact-line.js';
import type { MarkdownCodeBlock } from '../artifact/markdown/markdown-types.js';

/**
 * The text of a code block from its source lines (`[block.start, block.end)`): a fenced block
 * without its opening fence, its closing fence (absent when the block runs to the end of its
 * container) and the fence's indentation; an indented block without its four columns of
 * indentation. Inside a block quote, lines keep their `>` markers.
 *
 * @example
 * ```ts
 * codeBlockText(block, [{ lineNumber: 4, text: '```sh' }, { lineNumber: 5, text: 'npm test' }, { lineNumber: 6, text: '```' }]);
 * // [{ lineNumber: 5, text: 'npm test' }]
 * ```
 */
export function codeBlockText(
  block: Pick<MarkdownCodeBlock, 'fenced'>,
  lines: readonly ArtifactLine[],
): ArtifactLine[] {
  if (!block.fenced) return lines.map((line) => ({ ...line, text: outdent(line.text, 4) }));
  const [opening, ...rest] = lines;
  const fence = /^((?: {0,3}> ?)*)( *)(`{3,}|~{3,})/.exec(opening?.text ?? '');
  if (!fence) return rest;
  const [, quote = '', indent = '', marker = ''] = fence;
  // A closing fence: the opening's character, at least as many, nothing else.
  const closing = rest
    .at(-1)
    ?.text.replace(/^(?:\s*>)*/, '')
    .trim();
  const closes =
    closing !== undefined &&
    closing.length >= marker.length &&
    [...closing].every((character) => character === marker[0]);
  if (quote) return closes ? rest.slice(0, -1) : rest;
  const content = closes ? rest.slice(0, -1) : rest;
  return content.map((line) => ({ ...line, text: outdent(line.text, indent.length) }));
}

/** Removes up to `columns` columns of leading spaces (a tab counts as reaching the next stop). */
function outdent(text: string, columns: number): string {
  let position = 0;
  let column = 0;
  while (position < text.length && column < columns) {
    const character = text[position];
    if (character === ' ') column++;
    else if (character === '\t') column += 4 - (column % 4);
    else break;
    position++;
  }
  return text.slice(position);
}
