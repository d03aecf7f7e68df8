import { forEachChunk } from '../shared/for-each-chunk.js';
import { throwIfAborted } from '../shared/spoolforge-error.js';
import { SpoolWriter, type SpoolWriterOptions } from '../spool/spool-writer.js';
import type { ArtifactKind } from './kinds/artifact-kind.js';
import { type ArtifactKinds, labelKind } from './kinds/artifact-kinds.js';
import { defaultArtifactKinds } from './kinds/built-in-kinds.js';
import { sniffBytes } from './kinds/sniff-sample.js';
import { checkOutputName } from './output-name.js';
import type { SpooledArtifact, SpooledArtifactOptions } from './spooled-artifact.js';

/**
 * What {@link spool} accepts: text, bytes, or any async iterable of chunks (a Node `Readable`,
 * a web `ReadableStream`, an async generator).
 *
 * @example
 * ```ts
 * const source: SpoolSource = fs.createReadStream('build.log');
 * ```
 */
export type SpoolSource = string | Uint8Array | AsyncIterable<Uint8Array | string>;

/**
 * Options for {@link spool}: where bytes go, and how the artifact is labelled.
 */
export interface SpoolOptions
  extends SpoolWriterOptions,
    Omit<SpooledArtifactOptions, 'lineIndex' | 'onClose'> {
  /**
   * What the output is, by kind name (`'json'`, `'text'` for a plain `SpooledArtifact`).
   * Default: the kind the declared `mediaType` means, else the one its first 64 KiB show.
   */
  kind?: string;
  /** The kinds to choose from, and so the class of the artifact. Default `defaultArtifactKinds`. */
  kinds?: ArtifactKinds;
  /** Aborting stops reading the source, removes the temp file and rejects with `E_ABORTED`. */
  signal?: AbortSignal;
}

/**
 * Streams a source into a spool (memory, then a private temp file past `memoryThreshold`),
 * building the line index on the way, and returns the artifact once the source ends, as the
 * class of its kind: the declared `kind`, else the one its `mediaType` means, else the one its
 * first 64 KiB show (a `SpooledJsonArtifact` for JSON, a plain `SpooledArtifact` for text).
 * Memory stays at the threshold plus one chunk, whatever the source's size.
 *
 * @example
 * ```ts
 * import { createReadStream } from 'node:fs';
 * await using artifact = await spool(createReadStream('huge.log'));
 * console.log(await artifact.lineCount(), await artifact.tail(3));
 * ```
 */
export async function spool(
  source: SpoolSource,
  options: SpoolOptions = {},
): Promise<SpooledArtifact> {
  const { signal, kind: declared, kinds = defaultArtifactKinds, ...artifactOptions } = options;
  checkOutputName(options.name, 'E_INVALID_ARGUMENT');
  const declaredKind = declared === undefined ? undefined : kinds.named(declared);
  const writer = new SpoolWriter(options);
  try {
    throwIfAborted(signal);
    if (typeof source === 'string' || source instanceof Uint8Array) {
      await writer.write(source);
    } else {
      await forEachChunk(source, (chunk) => writer.write(chunk), { signal });
    }
    await writer.end();
  } catch (error) {
    await writer.close();
    throw error;
  }
  // A declared kind keeps the media type as given: its class may still tell JSON from JSONL.
  if (declaredKind) {
    return labelKind(declaredKind.artifactClass.fromWriter(writer, artifactOptions), declaredKind);
  }
  let kind: ArtifactKind;
  try {
    const size = writer.lineIndex.byteLength;
    kind = kinds.resolve({
      mediaType: options.mediaType,
      head: await writer.reader().read(0, Math.min(size, sniffBytes)),
      complete: size <= sniffBytes,
    });
  } catch (error) {
    await writer.close(); // a kind's sniffer may throw: its temp file goes all the same
    throw error;
  }
  const mediaType = options.mediaType ?? kind.mediaType;
  return labelKind(kind.artifactClass.fromWriter(writer, { ...artifactOptions, mediaType }), kind);
}
