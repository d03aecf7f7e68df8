import { raceAbort } from '../../shared/abortable.js';
import { SpoolforgeError, throwIfAborted } from '../../shared/spoolforge-error.js';
import type { ReaderDescriptor, ReadOptions, SpoolReader } from '../spool-reader.js';
import { assembleBlocks, BlockCache } from './block-cache.js';
import { FirstBlockCheck } from './first-block-check.js';
import { rangeClient } from './http-range-client.js';
import {
  fetchRange,
  fetchRangeBytes,
  probeRemote,
  type RangeClient,
} from './http-range-request.js';
import type { HttpSpoolReaderOptions } from './http-spool-reader-options.js';
import { PrefetchedRange } from './prefetched-range.js';
import { redactUrl } from './redact-url.js';
import type { RemoteIdentity } from './remote-identity.js';

interface Remote {
  identity: RemoteIdentity;
  /** The whole body, when the server sent it instead of a range. */
  whole: Uint8Array | undefined;
  /** Without a validator: the first block's digest, checked when it is downloaded again. */
  firstBlock: FirstBlockCheck | undefined;
}

/**
 * Reads an object over HTTP(S) with Range requests (RFC 9110), never downloading more than it is
 * asked for: any server that answers Range (nginx, S3 and GCS presigned URLs, `send`, a CDN).
 * The first request fetches the first block and learns the length and validator (a strong ETag,
 * else Last-Modified); later ones carry `If-Range`/`If-Match` and must repeat the length and
 * validator, so an object replaced mid-read fails with `E_REMOTE_CHANGED` instead of mixing
 * versions (without a validator, the first block is compared when downloaded again, as every
 * stream that made a request does as it ends). No reply is read past what was asked. Random
 * reads go through an LRU block cache (head, tail and a line lookup cost a request or two);
 * {@link HttpSpoolReader.stream} keeps several growing requests in flight for scans. A user and
 * password in the URL are sent as Basic auth; errors name the URL without them or its query
 * string, which may hold a signature, and never show them or a header's value, even echoed by
 * the server.
 *
 * @example
 * ```ts
 * const reader = new HttpSpoolReader('https://logs.example.com/build-4812.log', {
 *   headers: { authorization: `Bearer ${process.env.LOGS_TOKEN}` },
 * });
 * const artifact = new SpooledArtifact(reader);
 * console.log(await artifact.tail(20));
 * await artifact.close();
 * ```
 */
export class HttpSpoolReader implements SpoolReader {
  readonly url: string;
  readonly #client: RangeClient;
  readonly #blockSize: number;
  readonly #partSize: number;
  readonly #readAhead: number;
  readonly #cache: BlockCache;
  readonly #inFlight = new Map<number, Promise<Uint8Array>>();
  /** Aborted by `close()`. */
  readonly #controller = new AbortController();
  /** `close()` or the caller's `options.signal`: what every request of this reader obeys. */
  readonly #lifetime: AbortSignal;
  #remote: Promise<Remote> | undefined;
  #requestCount = 0;
  #bytesReceived = 0;

  constructor(url: string | URL, options: HttpSpoolReaderOptions = {}) {
    this.url = String(url);
    const protocol = URL.canParse(this.url) ? new URL(this.url).protocol : '';
    if (protocol !== 'http:' && protocol !== 'https:') {
      throw new SpoolforgeError('E_INVALID_ARGUMENT', `${redactUrl(this.url)}: not an http(s) URL`);
    }
    this.#client = rangeClient(this.url, options, () => this.#requestCount++);
    this.#blockSize = options.blockSize ?? 128 * 1024;
    this.#partSize = Math.max(options.partSize ?? 4 * 1024 * 1024, this.#blockSize);
    this.#readAhead = Math.max(1, options.readAhead ?? 4);
    this.#cache = new BlockCache(options.cacheBytes ?? 8 * 1024 * 1024);
    // AbortSignal.any holds the caller's signal weakly: a long-lived shutdown signal handed to
    // many readers keeps none of them alive.
    this.#lifetime = options.signal
      ? AbortSignal.any([this.#controller.signal, options.signal])
      : this.#controller.signal;
  }

  /** Requests sent (retries included) and payload bytes received so far. */
  get stats(): { requests: number; bytesReceived: number } {
    return { requests: this.#requestCount, bytesReceived: this.#bytesReceived };
  }

  async byteLength(): Promise<number> {
    return (await this.#open()).identity.length;
  }

  async read(position: number, length: number, options: ReadOptions = {}): Promise<Uint8Array> {
    const signal = this.#signal(options.signal);
    const remote = await this.#open(signal);
    const { identity, whole } = remote;
    const start = Math.max(0, position);
    const end = Math.min(identity.length, start + Math.max(0, length));
    if (end <= start) return new Uint8Array(0);
    if (whole) return whole.subarray(start, end);
    const size = this.#blockSize;
    const last = Math.floor((end - 1) / size);
    // A short final block comes with the one before it: a tail reads there next.
    const finalBlock = Math.floor((identity.length - 1) / size);
    const short = last === finalBlock && identity.length - finalBlock * size < size / 2;
    const first = Math.max(0, Math.floor(start / size) - (short && start >= last * size ? 1 : 0));
    for (;;) {
      try {
        const blocks = await this.#blocks(first, last, remote, signal);
        return assembleBlocks(blocks, start - first * size, end - start);
      } catch (error) {
        // A block another read was fetching failed because that read was aborted, not this one.
        if (SpoolforgeError.isInstance(error) && error.code === 'E_ABORTED' && !signal.aborted)
          continue;
        throw error;
      }
    }
  }

  /**
   * Bytes `[start, end)` in order, for a scan: the first part comes from the block cache, then
   * requests double from two blocks up to `partSize`, with up to `readAhead` in flight; the
   * oldest streams as it arrives while the others download. Stopping early (a `head`) cancels
   * what is in flight.
   */
  async *stream(start = 0, end?: number, options: ReadOptions = {}): AsyncGenerator<Uint8Array> {
    const controller = new AbortController();
    const signal = this.#signal(options.signal, controller.signal);
    const remote = await this.#open(signal);
    const { identity, whole } = remote;
    const stop = Math.min(end ?? identity.length, identity.length);
    let position = Math.max(0, start);
    if (position >= stop) return;
    if (whole) {
      yield whole.subarray(position, stop);
      return;
    }
    const requests = this.#requestCount;
    let failed = false;
    try {
      const firstEnd = Math.min(
        stop,
        (Math.floor(position / this.#blockSize) + 1) * this.#blockSize,
      );
      yield await this.read(position, firstEnd - position, { signal });
      position = firstEnd;
      const queue: PrefetchedRange[] = [];
      let next = position;
      let size = 2 * this.#blockSize;
      let window = 1;
      while (position < stop) {
        while (queue.length < window && next < stop) {
          const part = this.#cache.scanPart(next, stop, size, this.#blockSize);
          const range = { start: next, ...part };
          queue.push(
            new PrefetchedRange(async (onChunk) => {
              if (range.cached) {
                onChunk(await this.read(range.start, range.end - range.start, { signal }));
              } else {
                await this.#download(identity, range, signal, onChunk);
              }
            }),
          );
          next = range.end;
          size = Math.min(size * 2, this.#partSize);
        }
        // The first part streams as it arrives while the ones behind it download.
        for await (const chunk of (queue.shift() as PrefetchedRange).chunks()) {
          position += chunk.length;
          yield chunk;
        }
        window = Math.min(window + 1, this.#readAhead);
      }
    } catch (error) {
      failed = true;
      throw error;
    } finally {
      controller.abort();
      // Without a validator, the first block downloaded again is the check that the bytes
      // streamed (finished or stopped early) came from one version.
      if (!failed && remote.firstBlock && this.#requestCount > requests) {
        await this.#fetch(remote, 0, remote.firstBlock.length, this.#signal(options.signal));
      }
    }
  }

  /** `{ kind: 'http', locator: url }`. The locator is the full URL: a presigned one's secret too. */
  describe(): ReaderDescriptor {
    return { kind: 'http', locator: this.url };
  }

  /** Aborts requests in flight and drops the cache; later reads fail with `E_ABORTED`. */
  async close(): Promise<void> {
    this.#controller.abort(new SpoolforgeError('E_SPOOL_CLOSED', 'The reader was closed'));
    this.#cache.clear();
  }

  #open(signal: AbortSignal = this.#lifetime): Promise<Remote> {
    throwIfAborted(signal);
    if (!this.#remote) {
      // Shared by every caller, so only the reader's own signal may cancel it.
      const probe = probeRemote(this.#client, this.#blockSize, this.#lifetime).then(
        ({ identity, head, whole }) => {
          this.#bytesReceived += head.length;
          if (whole) return { identity, whole: head, firstBlock: undefined };
          this.#cache.set(0, head);
          const validated = identity.etag !== undefined || identity.lastModified !== undefined;
          return {
            identity,
            whole: undefined,
            firstBlock: validated ? undefined : new FirstBlockCheck(head),
          };
        },
      );
      // A failed probe (an abort, a network outage) is not remembered: the next call tries again.
      probe.catch(() => {
        if (this.#remote === probe) this.#remote = undefined;
      });
      this.#remote = probe;
    }
    return raceAbort(this.#remote, signal);
  }

  /** Blocks `first..last`: cached, already in flight, or fetched now, one request per missing run. */
  #blocks(first: number, last: number, remote: Remote, signal: AbortSignal): Promise<Uint8Array[]> {
    const blocks: (Uint8Array | Promise<Uint8Array>)[] = [];
    let run: number[] = [];
    const fetchRun = () => {
      const indices = run;
      run = [];
      if (indices.length === 0) return;
      const runStart = (indices[0] as number) * this.#blockSize;
      const runEnd = Math.min(remote.identity.length, runStart + indices.length * this.#blockSize);
      const bytes = this.#fetch(remote, runStart, runEnd, signal);
      const copy = indices.length > 1;
      indices.forEach((index, offset) => {
        // A copy when the run has several blocks: a cached view would pin the whole run's buffer.
        const block = bytes.then((all) =>
          (copy ? all.slice : all.subarray).call(
            all,
            offset * this.#blockSize,
            (offset + 1) * this.#blockSize,
          ),
        );
        this.#inFlight.set(index, block);
        block.then(
          (value) => this.#cache.set(index, value),
          () => undefined,
        );
        block.finally(() => this.#inFlight.delete(index)).catch(() => undefined);
        blocks[index - first] = block;
      });
    };
    for (let index = first; index <= last; index++) {
      const known = this.#cache.get(index) ?? this.#inFlight.get(index);
      if (known) {
        fetchRun();
        blocks[index - first] = known;
      } else {
        run.push(index);
      }
    }
    fetchRun();
    return raceAbort(Promise.all(blocks), signal);
  }

  /** Bytes `[start, end)` downloaded now; the first block is checked against the first reply's. */
  async #fetch(
    remote: Remote,
    start: number,
    end: number,
    signal: AbortSignal,
  ): Promise<Uint8Array> {
    const bytes = await fetchRangeBytes(this.#client, remote.identity, { start, end }, signal);
    this.#bytesReceived += bytes.length;
    if (start === 0) remote.firstBlock?.verify(this.#client.label, bytes);
    return bytes;
  }

  #download(
    identity: RemoteIdentity,
    range: { start: number; end: number },
    signal: AbortSignal,
    onChunk: (chunk: Uint8Array) => void,
  ): Promise<void> {
    return fetchRange(this.#client, identity, range, signal, (chunk) => {
      this.#bytesReceived += chunk.length;
      onChunk(chunk);
    });
  }

  /** The reader's own signal joined with a call's. */
  #signal(...signals: (AbortSignal | undefined)[]): AbortSignal {
    const present = signals.filter((signal): signal is AbortSignal => signal !== undefined);
    return present.length === 0 ? this.#lifetime : AbortSignal.any([this.#lifetime, ...present]);
  }
}
