import { SpoolforgeError } from '../shared/spoolforge-error.js';
import { FileSpoolReader } from '../spool/file-spool-reader.js';
import { HttpSpoolReader } from '../spool/http/http-spool-reader.js';
import type { HttpSpoolReaderOptions } from '../spool/http/http-spool-reader-options.js';
import { lineBlocks } from '../spool/line-blocks.js';
import { LineIndex } from '../spool/line-index.js';
import { newline } from '../spool/newlines.js';
import { readerChunks } from '../spool/reader-chunks.js';
import { seekLine } from '../spool/seek-line.js';
import type { SpoolReader } from '../spool/spool-reader.js';
import type { SpoolWriter } from '../spool/spool-writer.js';
import type { ArtifactLine } from './artifact-line.js';
import { decodeUtf8 } from './decode-utf8.js';
import type { GrepOptions, GrepResult } from './grep-artifact.js';
import { grepArtifact } from './grep-artifact.js';
import type { TokenEncoding } from './tokens/approximate-tokens.js';
import {
  estimateTokens as estimateReaderTokens,
  type TokenEstimate,
} from './tokens/estimate-tokens.js';

/**
 * Options for a {@link SpooledArtifact}.
 */
export interface SpooledArtifactOptions {
  /** A label for people and models; never a path. */
  name?: string;
  /** What the bytes are, when the producer says (`application/x-ndjson`); subclasses read it. */
  mediaType?: string;
  /** A line index kept current by whoever writes the bytes (a {@link SpoolWriter}). */
  lineIndex?: LineIndex;
  /** The most text `asString`, `head`, `tail`, `cat` and `grep` gather in memory. Default 64 MiB. */
  maxStringBytes?: number;
  /** Runs on {@link SpooledArtifact.close}, after the reader is closed. */
  onClose?: () => Promise<void>;
}

/**
 * Options for queries that may take long.
 *
 * @example
 * ```ts
 * await artifact.lineCount({ signal: AbortSignal.timeout(5_000) });
 * ```
 */
export interface QueryOptions {
  signal?: AbortSignal;
}

/**
 * A spooled output, queried like a file with GNU tools: `head`, `tail`, `cat` (0-based,
 * half-open line ranges), `grep`, and streaming `lines`. Nothing reads the whole artifact into
 * one string except `asString`, which refuses past `maxStringBytes` (`E_ARTIFACT_TOO_LARGE`).
 * A growing artifact answers for the bytes that have arrived.
 *
 * @example
 * ```ts
 * await using artifact = SpooledArtifact.fromFile('/var/log/build.log');
 * console.log(await artifact.lineCount());
 * console.log(await artifact.tail(5));
 * const { lines } = await artifact.grep('ERROR', { context: 2, maxCount: 10 });
 * ```
 */
export class SpooledArtifact {
  static readonly defaultMaxStringBytes = 64 * 1024 * 1024;
  readonly reader: SpoolReader;
  readonly name: string | undefined;
  readonly mediaType: string | undefined;
  readonly maxStringBytes: number;
  readonly #index: LineIndex;
  readonly #indexIsLive: boolean;
  readonly #onClose: (() => Promise<void>) | undefined;
  #indexQueue: Promise<unknown> = Promise.resolve();
  readonly #tokenEstimates = new Map<string, { byteLength: number; estimate: TokenEstimate }>();

  constructor(reader: SpoolReader, options: SpooledArtifactOptions = {}) {
    this.reader = reader;
    this.name = options.name;
    this.mediaType = options.mediaType;
    this.maxStringBytes = options.maxStringBytes ?? SpooledArtifact.defaultMaxStringBytes;
    this.#indexIsLive = options.lineIndex !== undefined;
    this.#index = options.lineIndex ?? new LineIndex();
    this.#onClose = options.onClose;
  }

  /** An artifact over a file read in place; its line index is built on first need. */
  static fromFile<T extends SpooledArtifact, Options extends SpooledArtifactOptions>(
    this: new (
      reader: SpoolReader,
      options?: Options,
    ) => T,
    path: string,
    options: Omit<Options, 'lineIndex'> = {} as Options,
  ): T {
    // The options are the class's own (a subclass adds some); `lineIndex` is the base's to set.
    return new this(new FileSpoolReader(path), options as Options);
  }

  /**
   * An artifact over an http(s) URL, read with Range requests by an {@link HttpSpoolReader}
   * (`options.http`: headers, a custom fetch, cache and retry settings). Head, grep and line
   * ranges near the start read only what they need; the line index (for `lineCount`, `tail`
   * and numbered lines near the end) is built by one streaming pass on first need.
   */
  static fromUrl<T extends SpooledArtifact, Options extends SpooledArtifactOptions>(
    this: new (
      reader: SpoolReader,
      options?: Options,
    ) => T,
    url: string | URL,
    options: Omit<Options, 'lineIndex'> & { http?: HttpSpoolReaderOptions } = {} as Options,
  ): T {
    const { http, ...artifactOptions } = options;
    return new this(new HttpSpoolReader(url, http), artifactOptions as Options);
  }

  /** An artifact over a writer's bytes, queryable while the writer is still writing. */
  static fromWriter<T extends SpooledArtifact, Options extends SpooledArtifactOptions>(
    this: new (
      reader: SpoolReader,
      options?: Options,
    ) => T,
    writer: SpoolWriter,
    options: Omit<Options, 'lineIndex'> = {} as Options,
  ): T {
    return new this(writer.reader(), {
      ...options,
      lineIndex: writer.lineIndex,
      onClose: async () => {
        await writer.close();
        await options.onClose?.();
      },
    } as Options);
  }

  /**
   * What the artifact holds, for handles and listings: `text` here; subclasses say more (a
   * custom kind's class returns the kind's name, which handles and artifact_list show).
   */
  get kind(): string {
    return 'text';
  }

  byteLength(): Promise<number> {
    return this.reader.byteLength();
  }

  async lineCount(options: QueryOptions = {}): Promise<number> {
    return (await this.#lineIndex(options.signal)).lineCount;
  }

  /** The first `n` lines. */
  head(n = 10, options: QueryOptions = {}): Promise<ArtifactLine[]> {
    return this.cat(0, Math.max(0, n), options);
  }

  /** The last `n` lines, found from the line index near the end, not by a scan. */
  async tail(n = 10, options: QueryOptions = {}): Promise<ArtifactLine[]> {
    const count = await this.lineCount(options);
    return this.cat(Math.max(0, count - Math.max(0, n)), count, options);
  }

  /** Lines `[start, end)`, 0-based; gathering more than `maxStringBytes` fails. */
  async cat(start = 0, end = Number.POSITIVE_INFINITY, options: QueryOptions = {}) {
    const lines: ArtifactLine[] = [];
    let size = 0;
    for await (const line of this.lines(start, end, options)) {
      size += line.text.length;
      if (size > this.maxStringBytes) throw this.#tooLarge('cat', 'iterate lines() instead');
      lines.push(line);
    }
    return lines;
  }

  /** Streams lines `[start, end)`, 0-based, holding one chunk at a time. */
  async *lines(start = 0, end = Number.POSITIVE_INFINITY, options: QueryOptions = {}) {
    if (start < 0 || end < start || !Number.isInteger(start)) {
      throw new SpoolforgeError('E_INVALID_ARGUMENT', `Invalid line range [${start}, ${end})`);
    }
    if (end === start) return;
    const from = await this.lineOffset(start, options);
    const stop = await this.reader.byteLength();
    const chunks = readerChunks(this.reader, {
      start: from,
      end: stop,
      initialChunkSize: 64 * 1024,
      reuseBuffers: true,
      ...options,
    });
    let lineNumber = start;
    for await (const block of lineBlocks(chunks, options)) {
      for (let position = 0; position < block.length; lineNumber++) {
        if (lineNumber >= end) return;
        const found = block.indexOf(newline, position);
        const lineEnd = found === -1 ? block.length : found;
        yield { lineNumber, text: decodeUtf8(block.subarray(position, lineEnd)) } as ArtifactLine;
        position = lineEnd + 1;
      }
    }
  }

  /** Lines matching a JavaScript regex (or a literal with `fixed`), with grep's options. */
  grep(pattern: string, options: GrepOptions = {}): Promise<GrepResult> {
    return grepArtifact(this, pattern, options);
  }

  /** Tokens the whole text would cost a model (see {@link SpooledArtifact.tokenEstimate}). */
  async estimateTokens(encoding: TokenEncoding = 'o200k_base', options: QueryOptions = {}) {
    return (await this.tokenEstimate(encoding, options)).tokens;
  }

  /**
   * Tokens the whole text would cost, and how that was counted: exactly up to 1 MiB, from 128
   * evenly spread samples past it (within about 0.5%, ~100 ms whatever the size), bytes / 4
   * for encodings without a tokenizer. Cached until the artifact grows.
   */
  async tokenEstimate(
    encoding: TokenEncoding = 'o200k_base',
    options: QueryOptions = {},
  ): Promise<TokenEstimate> {
    const byteLength = await this.byteLength();
    const cached = this.#tokenEstimates.get(encoding);
    if (cached?.byteLength === byteLength) return cached.estimate;
    const estimate = await estimateReaderTokens(this.reader, { encoding, byteLength, ...options });
    this.#tokenEstimates.set(encoding, { byteLength, estimate });
    return estimate;
  }

  /** The whole text; fails with `E_ARTIFACT_TOO_LARGE` past `maxStringBytes`. */
  async asString(options: QueryOptions = {}): Promise<string> {
    const size = await this.byteLength();
    if (size > this.maxStringBytes) throw this.#tooLarge('asString', 'use head, tail, cat or grep');
    const chunks: Uint8Array[] = [];
    for await (const chunk of readerChunks(this.reader, { end: size, ...options }))
      chunks.push(chunk);
    return decodeUtf8(Buffer.concat(chunks));
  }

  async close(): Promise<void> {
    await this.reader.close?.();
    await this.#onClose?.();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  /** The byte offset where 0-based `line` starts (the length, past the last line). */
  async lineOffset(line: number, options: QueryOptions = {}): Promise<number> {
    if (line === 0) return 0;
    const { signal } = options;
    const index = await this.#lineIndex(signal);
    return seekLine(this.reader, index.checkpointFor(line), line, {
      end: index.byteLength,
      windowSize: index.stride,
      ...(signal ? { signal } : {}),
    });
  }

  /** The live index as is, or the lazy one extended to the reader's current length. */
  #lineIndex(signal: AbortSignal | undefined): Promise<LineIndex> {
    if (this.#indexIsLive) return Promise.resolve(this.#index);
    const run = this.#indexQueue.then(async () => {
      const index = this.#index;
      const chunks = readerChunks(this.reader, {
        start: index.byteLength,
        reuseBuffers: true,
        ...(signal ? { signal } : {}),
      });
      for await (const chunk of chunks) index.append(chunk);
      return index;
    });
    this.#indexQueue = run.catch(() => undefined);
    return run;
  }

  #tooLarge(method: string, advice: string): SpoolforgeError {
    return new SpoolforgeError(
      'E_ARTIFACT_TOO_LARGE',
      `${method}() would gather more than maxStringBytes (${this.maxStringBytes} bytes); ${advice}`,
    );
  }
}
