import type { Stats } from 'node:fs';
import type { ArtifactKind } from '../../artifact/kinds/artifact-kind.js';
import { type ArtifactKinds, labelKind } from '../../artifact/kinds/artifact-kinds.js';
import { sniffBytes } from '../../artifact/kinds/sniff-sample.js';
import type { SpooledArtifact } from '../../artifact/spooled-artifact.js';
import { FileSpoolReader } from '../../spool/file-spool-reader.js';
import { HttpSpoolReader } from '../../spool/http/http-spool-reader.js';
import type { HttpSpoolReaderOptions } from '../../spool/http/http-spool-reader-options.js';
import { LineIndex } from '../../spool/line-index.js';
import {
  loadLineIndex,
  minimumCachedFileBytes,
  saveLineIndex,
} from '../../spool/line-index-cache.js';
import { buildLineIndexInParallel } from '../../spool/parallel-line-index.js';
import { runsInParallel } from '../../spool/parallel-threshold.js';
import { readerChunks } from '../../spool/reader-chunks.js';
import type { SpoolReader } from '../../spool/spool-reader.js';
import type { ConfinedFile } from './confined-paths.js';

/**
 * A file or URL opened for queries: the artifact of its kind, and for a file the stats it was
 * opened at (a later call that sees others reopens it).
 */
export interface OpenedTarget {
  artifact: SpooledArtifact;
  kind: ArtifactKind;
  stats?: Stats;
  /** A large file's line index, complete at `stats`: a grown file's next index starts from it. */
  index?: LineIndex;
}

/**
 * Opens a regular file, already open and checked under a root, as the artifact of its kind
 * (sniffed from its first 64 KiB); the artifact reads through that descriptor and closes it.
 * From 16 MiB on, the line index is loaded from the CLI's cache (built on worker threads for a
 * huge file, else in one pass, then saved), so a 4 GiB log is scanned once, not by every
 * server or call; `previous` (the same file, opened before it grew) lets a grown file's index
 * resume where it stopped.
 *
 * @example
 * ```ts
 * const opened = await openFile(await paths.open('big.log'), defaultArtifactKinds, {});
 * ```
 */
export async function openFile(
  file: ConfinedFile,
  kinds: ArtifactKinds,
  options: { previous?: OpenedTarget | undefined; signal?: AbortSignal | undefined },
): Promise<OpenedTarget> {
  const { real: path, stats } = file;
  const reader = new FileSpoolReader(path, { handle: file.handle });
  try {
    const kind = await sniffKind(reader, stats.size, kinds);
    if (stats.size < minimumCachedFileBytes)
      return { artifact: artifactOf(reader, kind), kind, stats };
    const index = await fileLineIndex(reader, { path, stats, reopen: file.reopen }, options);
    return { artifact: artifactOf(reader, kind, index), kind, stats, index };
  } catch (error) {
    await reader.close();
    throw error;
  }
}

/**
 * Opens an http(s) URL as the artifact of its kind, read with Range requests; its line index is
 * built by one streaming pass on first need.
 *
 * @example
 * ```ts
 * const opened = await openUrl('https://logs.example.com/ci/run-7.log', defaultArtifactKinds, {});
 * ```
 */
export async function openUrl(
  url: string,
  kinds: ArtifactKinds,
  http: HttpSpoolReaderOptions,
): Promise<OpenedTarget> {
  const reader = new HttpSpoolReader(url, http);
  try {
    const kind = await sniffKind(reader, await reader.byteLength(), kinds);
    return { artifact: artifactOf(reader, kind), kind };
  } catch (error) {
    await reader.close();
    throw error;
  }
}

async function sniffKind(reader: SpoolReader, size: number, kinds: ArtifactKinds) {
  const head = await reader.read(0, Math.min(size, sniffBytes));
  return kinds.sniff(head, { complete: size <= sniffBytes });
}

function artifactOf(reader: SpoolReader, kind: ArtifactKind, lineIndex?: LineIndex) {
  const options = { mediaType: kind.mediaType, ...(lineIndex ? { lineIndex } : {}) };
  return labelKind(new kind.artifactClass(reader, options), kind);
}

/**
 * The line index of a large file as it is now: cached, else the previous one extended (an
 * appended log), else built on worker threads when the file is huge, else in one pass.
 */
async function fileLineIndex(
  reader: SpoolReader,
  file: { path: string; stats: Stats; reopen: string },
  options: { previous?: OpenedTarget | undefined; signal?: AbortSignal | undefined },
): Promise<LineIndex> {
  const { signal } = options;
  const previous = options.previous;
  const grown =
    previous?.index &&
    previous.stats?.ino === file.stats.ino &&
    previous.stats.dev === file.stats.dev &&
    previous.index.byteLength <= file.stats.size
      ? LineIndex.fromSnapshot(previous.index.snapshot())
      : undefined;
  let index = (await loadLineIndex(file)) ?? grown;
  let added = 0;
  if (!index && runsInParallel(file, 'index')) {
    // Worker threads open the descriptor's file, not the path: it may lead elsewhere now.
    index = await buildLineIndexInParallel(file.reopen, signal ? { signal } : {});
    added = index.byteLength;
  }
  index ??= new LineIndex();
  const covered = index.byteLength;
  const chunks = readerChunks(reader, {
    start: covered,
    end: file.stats.size,
    reuseBuffers: true,
    ...(signal ? { signal } : {}),
  });
  for await (const chunk of chunks) index.append(chunk);
  added += index.byteLength - covered;
  if (added >= minimumCachedFileBytes) await saveLineIndex(file, index);
  return index;
}
