import { SpoolforgeError } from '../../shared/spoolforge-error.js';
import { countNewlines, newline } from '../../spool/newlines.js';
import { readerChunks } from '../../spool/reader-chunks.js';
import type { SpoolReader } from '../../spool/spool-reader.js';
import { findJsonSyntaxError, type JsonSyntaxProblem } from './find-json-syntax-error.js';

/**
 * A 1-based line and column (in characters), the way editors and `JSON.parse` count.
 */
export interface TextPosition {
  line: number;
  column: number;
}

/**
 * The `E_INVALID_JSON` error: where the first problem is and what it is. The message tells a
 * model the text tools still work, since the bytes are all there.
 *
 * @example
 * ```ts
 * throw invalidJson({ line: 3, column: 14 }, "Expected ',' or '}' after a property value");
 * ```
 */
export function invalidJson(position: TextPosition, problem: string): SpoolforgeError {
  return new SpoolforgeError(
    'E_INVALID_JSON',
    `Invalid JSON at line ${position.line}, column ${position.column}: ${problem}. ` +
      'The text tools (artifact_read, artifact_grep) still work on it.',
  );
}

/**
 * The line and column of UTF-16 `index` in `text`, lines starting at `firstLine`.
 *
 * @example
 * ```ts
 * positionInText('{\n  "a": }', 9); // { line: 2, column: 8 }
 * ```
 */
export function positionInText(text: string, index: number, firstLine = 1): TextPosition {
  let line = firstLine;
  let lineStart = 0;
  for (let found = text.indexOf('\n'); found !== -1 && found < index; ) {
    line++;
    lineStart = found + 1;
    found = text.indexOf('\n', lineStart);
  }
  return { line, column: [...text.slice(lineStart, index)].length + 1 };
}

/**
 * The error for a JSON text that `JSON.parse` rejected, positioned by
 * {@link findJsonSyntaxError}; `firstLine` places a record or element within its artifact.
 *
 * @example
 * ```ts
 * try { JSON.parse(text) } catch { throw describeInvalidJson(text) }
 * ```
 */
export function describeInvalidJson(text: string, firstLine = 1): SpoolforgeError {
  const problem = problemIn(text);
  return invalidJson(positionInText(text, problem.index, firstLine), problem.message);
}

/**
 * The first problem of a text `JSON.parse` rejected (the start, should the finder disagree).
 *
 * @example
 * ```ts
 * problemIn('{"a": }'); // { index: 6, message: "Expected a value, found '}'" }
 * ```
 */
export function problemIn(text: string): JsonSyntaxProblem {
  return findJsonSyntaxError(text) ?? { index: 0, message: 'Not valid JSON' };
}

/**
 * The line and column of byte `offset` in a reader's bytes, counting newlines from the start
 * (only on the error path, so a scan is fine).
 *
 * @example
 * ```ts
 * const { line, column } = await positionOfByte(reader, 1_234_567);
 * ```
 */
export async function positionOfByte(
  reader: SpoolReader,
  offset: number,
  options: { signal?: AbortSignal } = {},
): Promise<TextPosition> {
  let line = 1;
  let column = 1;
  for await (const chunk of readerChunks(reader, { end: offset, ...options })) {
    line += countNewlines(chunk);
    const last = chunk.lastIndexOf(newline);
    if (last !== -1) column = 1;
    // Characters, not bytes: count every byte that is not a UTF-8 continuation byte.
    for (let index = last + 1; index < chunk.length; index++) {
      if (((chunk[index] as number) & 0xc0) !== 0x80) column++;
    }
  }
  return { line, column };
}

/**
 * The error for JSON whose problem lies at byte `offset` of a reader.
 *
 * @example
 * ```ts
 * throw await invalidJsonAt(reader, scanError.offset, scanError.message);
 * ```
 */
export async function invalidJsonAt(
  reader: SpoolReader,
  offset: number,
  problem: string,
  options: { signal?: AbortSignal } = {},
): Promise<SpoolforgeError> {
  return invalidJson(await positionOfByte(reader, offset, options), problem);
}
