import { abortable } from '../shared/abortable.js';
import { throwIfAborted } from '../shared/spoolforge-error.js';
import { SpoolWriter, type SpoolWriterOptions } from '../spool/spool-writer.js';
import { type ArtifactClassChooser, defaultArtifactClassFor } from './artifact-class-for-kind.js';
import { mediaTypeOfKind, resolveKind, sniffBytes } from './detect-kind.js';
import { SpooledArtifact, type SpooledArtifactOptions } from './spooled-artifact.js';

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
   * The class to wrap the spool in (a subclass of `SpooledArtifact`), or `'detect'`: the kind
   * the declared `mediaType` names, else the one the first 64 KiB show (see `detectKind`),
   * mapped by `artifactClassFor`. Default `SpooledArtifact`.
   */
  artifactClass?: typeof SpooledArtifact | 'detect';
  /** Maps a detected kind to a class. Default {@link defaultArtifactClassFor}. */
  artifactClassFor?: ArtifactClassChooser;
  /** Aborting stops reading the source, removes the temp file and rejects with `E_ABORTED`. */
  signal?: AbortSignal;
}

/**
 * Streams a source into a spool (memory, then a private temp file past `memoryThreshold`),
 * building the line index on the way, and returns the artifact once the source ends. Memory
 * stays at the threshold plus one chunk, whatever the source's size.
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
  const { signal } = options;
  const writer = new SpoolWriter(options);
  try {
    throwIfAborted(signal);
    if (typeof source === 'string' || source instanceof Uint8Array) {
      await writer.write(source);
    } else {
      for await (const chunk of abortable(source, signal)) await writer.write(chunk);
    }
    await writer.end();
  } catch (error) {
    await writer.close();
    throw error;
  }
  if (options.artifactClass !== 'detect') {
    return (options.artifactClass ?? SpooledArtifact).fromWriter(writer, options);
  }
  const size = writer.lineIndex.byteLength;
  const kind = resolveKind({
    mediaType: options.mediaType,
    head: await writer.reader().read(0, Math.min(size, sniffBytes)),
    complete: size <= sniffBytes,
  });
  const artifactClass = (options.artifactClassFor ?? defaultArtifactClassFor)(kind);
  const mediaType = options.mediaType ?? mediaTypeOfKind(kind);
  return artifactClass.fromWriter(writer, { ...options, mediaType });
}
