import type { ArtifactLine } from '../artifact/artifact-line.js';
import { decodeUtf8 } from '../artifact/decode-utf8.js';
import { type QueryOptions, SpooledArtifact } from '../artifact/spooled-artifact.js';
import { readerChunks } from '../spool/reader-chunks.js';

/**
 * The class the viewer opens artifacts as: each line it reads keeps at most 64 KiB (or
 * 4 × `maxLineChars` bytes, room for that many characters of UTF-8, if more) and counts the
 * rest, so showing a 50 MB line (a minified JSON document) costs a few KiB, not the line in
 * memory. A line cut here says how many bytes it has; shorter lines are exactly what any
 * query gives.
 *
 * @example
 * ```ts
 * const artifact = await store.get(id, { artifactClass: viewerArtifactClass(2_000) });
 * ```
 */
export function viewerArtifactClass(maxLineChars: number): typeof SpooledArtifact {
  const keptBytes = Math.max(64 * 1024, 4 * maxLineChars);
  return class ViewerArtifact extends SpooledArtifact {
    override async *lines(
      start = 0,
      end = Number.POSITIVE_INFINITY,
      options: QueryOptions = {},
    ): AsyncGenerator<ArtifactLine> {
      if (!(Number.isInteger(start) && start >= 0 && end > start)) {
        yield* super.lines(start, end, options); // refuses a bad range, or yields nothing
        return;
      }
      const kept = Buffer.allocUnsafe(keptBytes);
      let keptLength = 0;
      let length = 0;
      let open = false;
      let lineNumber = start;
      const finish = (): ArtifactLine => {
        const line = {
          lineNumber: lineNumber++,
          text: shownText(kept.subarray(0, keptLength), length),
        };
        keptLength = length = 0;
        open = false;
        return line;
      };
      const chunks = readerChunks(this.reader, {
        start: await this.lineOffset(start, options),
        initialChunkSize: 64 * 1024,
        reuseBuffers: true,
        ...options,
      });
      for await (const chunk of chunks) {
        for (let position = 0; position < chunk.length; ) {
          if (lineNumber >= end) return;
          const found = chunk.indexOf(0x0a, position);
          const stop = found === -1 ? chunk.length : found;
          const piece = chunk.subarray(position, Math.min(stop, position + keptBytes - keptLength));
          kept.set(piece, keptLength);
          keptLength += piece.length;
          length += stop - position;
          open = true;
          if (found === -1) break;
          yield finish();
          position = found + 1;
        }
      }
      if (open && lineNumber < end) yield finish();
    }
  };

  /** The whole line when all of it was kept, else its start (within `maxLineChars`) and a note. */
  function shownText(bytes: Uint8Array, length: number): string {
    if (length <= keptBytes) return decodeUtf8(bytes);
    const note = `… [line cut: ${length} bytes]`;
    const text = decodeUtf8(bytes);
    let cut = Math.max(0, maxLineChars - note.length);
    const code = text.charCodeAt(cut - 1);
    if (code >= 0xd800 && code <= 0xdbff) cut--; // never half a surrogate pair
    return `${text.slice(0, cut)}${note}`;
  }
}
