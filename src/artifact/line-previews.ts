import { SpoolforgeError } from '../shared/spoolforge-error.js';
import { newline } from '../spool/newlines.js';
import { readerChunks } from '../spool/reader-chunks.js';
import type { ArtifactLine } from './artifact-line.js';
import { decodeUtf8, decodeUtf8Prefix } from './decode-utf8.js';
import type { QueryOptions, SpooledArtifact } from './spooled-artifact.js';

/**
 * A line read no further than a byte budget: the start of its text, and how long it is.
 */
export interface LinePreview extends ArtifactLine {
  /** The whole line's length in bytes, without its `\n`. */
  byteLength: number;
  /** True when `text` is only the line's first `maxLineBytes` bytes. */
  cut: boolean;
}

/**
 * Options for {@link linePreviews}.
 */
export interface LinePreviewOptions extends QueryOptions {
  /** The most bytes of each line decoded; the rest is skipped, only counted. */
  maxLineBytes: number;
}

/**
 * Streams lines `[start, end)`, 0-based, keeping at most `maxLineBytes` of each: a 50 MB
 * minified document's one line costs a few KiB of memory, not 50 MB, and no
 * `E_ARTIFACT_TOO_LARGE` or `E_LINE_TOO_LONG`. A cut never splits a UTF-8 character.
 *
 * @example
 * ```ts
 * for await (const line of linePreviews(artifact, 0, 3, { maxLineBytes: 400 })) {
 *   console.log(line.lineNumber, line.cut ? `${line.text}…` : line.text);
 * }
 * ```
 */
export async function* linePreviews(
  artifact: SpooledArtifact,
  start: number,
  end: number,
  options: LinePreviewOptions,
): AsyncGenerator<LinePreview> {
  const { maxLineBytes, signal } = options;
  if (start < 0 || end < start || !Number.isInteger(start)) {
    throw new SpoolforgeError('E_INVALID_ARGUMENT', `Invalid line range [${start}, ${end})`);
  }
  if (end === start) return;
  const query = signal ? { signal } : {};
  const from = await artifact.lineOffset(start, query);
  const chunks = readerChunks(artifact.reader, {
    start: from,
    end: await artifact.reader.byteLength(),
    initialChunkSize: 64 * 1024,
    reuseBuffers: true,
    ...query,
  });
  let lineNumber = start;
  let kept: Buffer[] = [];
  let keptBytes = 0;
  let byteLength = 0;
  const finish = (): LinePreview => {
    const bytes = Buffer.concat(kept, keptBytes);
    const cut = byteLength > keptBytes;
    const text = cut ? decodeUtf8Prefix(bytes) : decodeUtf8(bytes);
    kept = [];
    keptBytes = 0;
    const line = { lineNumber: lineNumber++, text, byteLength, cut };
    byteLength = 0;
    return line;
  };
  for await (const chunk of chunks) {
    let position = 0;
    while (position < chunk.length) {
      const found = chunk.indexOf(newline, position);
      const pieceEnd = found === -1 ? chunk.length : found;
      const take = Math.min(pieceEnd - position, maxLineBytes - keptBytes);
      if (take > 0) {
        // A copy: the chunk's buffer is reused for the next read.
        kept.push(Buffer.from(chunk.subarray(position, position + take)));
        keptBytes += take;
      }
      byteLength += pieceEnd - position;
      if (found === -1) break;
      yield finish();
      if (lineNumber >= end) return;
      position = found + 1;
    }
  }
  if (byteLength > 0) yield finish();
}
