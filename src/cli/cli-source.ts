import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { SpooledArtifact } from '../artifact/spooled-artifact.js';
import { fs } from '../shared/node-fs.js';
import { SpoolforgeError } from '../shared/spoolforge-error.js';
import { fileError } from '../spool/file-errors.js';
import { FileSpoolReader } from '../spool/file-spool-reader.js';
import type { HttpSpoolReaderOptions } from '../spool/http/http-spool-reader-options.js';
import { type ReaderChunksOptions, readerChunks } from '../spool/reader-chunks.js';
import type { SpoolReader } from '../spool/spool-reader.js';

/**
 * A CLI SOURCE opened for reading: a regular file is read in place with positioned reads, an
 * http(s) URL with Range requests (or, from a server that ignores them, as one stream); standard input (`-`), a pipe or a device is a stream.
 *
 * @example
 * ```ts
 * const source = await openSource('build.log', () => process.stdin);
 * for await (const chunk of source.chunks()) process.stdout.write(chunk);
 * await source.close();
 * ```
 */
export interface CliSource {
  /** The size when it is known up front (regular files, URLs). */
  size: number | undefined;
  /** A regular file's path and stats, which key its persisted line index. */
  file: { path: string; stats: Stats } | undefined;
  /** The bytes from `start`, read once. */
  chunks(options?: ReaderChunksOptions): AsyncIterable<Uint8Array>;
  /** Random access; a stream is spooled first (to a private temp file past a few MiB). */
  reader(): Promise<SpoolReader>;
  close(): Promise<void>;
}

/**
 * Opens a SOURCE operand: a path, an http(s) URL (read with `http`'s timeout and retries), or
 * `-` for standard input. A regular file whose size reads 0 (procfs, sysfs) is read as a stream
 * to its end, as GNU tools do: its size says nothing of its content.
 *
 * @example
 * ```ts
 * const source = await openSource('-', () => process.stdin);
 * ```
 */
export async function openSource(
  operand: string,
  stdin: () => AsyncIterable<Uint8Array>,
  http: Pick<HttpSpoolReaderOptions, 'timeout' | 'retries'> = {},
): Promise<CliSource> {
  if (operand === '-') return streamSource(stdin());
  if (/^https?:\/\//i.test(operand)) {
    // Range requests: head, tail and lines read a block or two; grep and count stream it.
    const { HttpSpoolReader } = await import('../spool/http/http-spool-reader.js');
    const reader = new HttpSpoolReader(operand, http);
    try {
      return readerSource(reader, await reader.byteLength(), undefined);
    } catch (error) {
      await reader.close();
      if (!SpoolforgeError.isInstance(error) || error.code !== 'E_REMOTE_RANGE_UNSUPPORTED')
        throw error;
      return rangelessSource(operand, http);
    }
  }
  const stats = await stat(operand).catch((error: unknown) => {
    throw fileError(operand, error);
  });
  if (stats.isDirectory()) throw fileError(operand, Object.assign(new Error(), { code: 'EISDIR' }));
  if (!stats.isFile() || stats.size === 0) return streamSource(fs.createReadStream(operand));
  return readerSource(new FileSpoolReader(operand), stats.size, { path: operand, stats });
}

function readerSource(reader: SpoolReader, size: number, file: CliSource['file']): CliSource {
  return {
    size,
    file,
    chunks: (options) => readerChunks(reader, options),
    reader: async () => reader,
    close: async () => reader.close?.(),
  };
}

/**
 * A URL whose server ignores Range (`python3 -m http.server`): one plain GET streamed from the
 * start, enough for grep, count, head and lines; what must seek (to the end) is refused with the
 * way around it.
 */
async function rangelessSource(
  url: string,
  http: Pick<HttpSpoolReaderOptions, 'timeout' | 'retries'>,
): Promise<CliSource> {
  const { httpBodyStream } = await import('../spool/http/http-body-stream.js');
  const { redactUrl } = await import('../spool/http/redact-url.js');
  return {
    size: undefined,
    file: undefined,
    chunks: () => httpBodyStream(url, http),
    reader: async () => {
      throw new SpoolforgeError(
        'E_REMOTE_RANGE_UNSUPPORTED',
        `${redactUrl(url)}: the server ignores Range requests, so it is read in one pass from the start (grep, count, head, lines, tail -n +N); for tail, pipe it: curl -s URL | spoolforge tail -`,
      );
    },
    close: async () => undefined,
  };
}

function streamSource(stream: AsyncIterable<Uint8Array>): CliSource {
  let spooled: Promise<SpooledArtifact> | undefined;
  return {
    size: undefined,
    file: undefined,
    chunks: () => stream,
    reader: async () => {
      // Loaded on demand: the artifact layer brings zod, ~100 ms of start-up a file never needs.
      spooled ??= import('../artifact/spool.js').then(({ spool }) => spool(stream));
      return (await spooled).reader;
    },
    close: async () => {
      await (await spooled)?.close();
    },
  };
}
