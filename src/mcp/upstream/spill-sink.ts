import { SpoolWriter, type SpoolWriterOptions } from '../../spool/spool-writer.js';

/** Bytes gathered before one write to the spool: few promises, whatever the escape density. */
const flushBytes = 256 * 1024;

/**
 * Options for a {@link SpillSink}.
 *
 * @example
 * ```ts
 * const options: SpillSinkOptions = { track: (write) => pending.push(write) };
 * ```
 */
export interface SpillSinkOptions {
  /** Receives the promise of every write to the spool, so its caller can wait on them. */
  track: (write: Promise<void>) => void;
  /** Options of the spool the bytes go to. */
  writer?: SpoolWriterOptions;
}

/**
 * Batches many small appends into writes of 256 KiB to a {@link SpoolWriter} (memory up to its
 * threshold, then a private temp file). Appends are synchronous; the writes they cause are
 * handed to `track`.
 *
 * @example
 * ```ts
 * const sink = new SpillSink({ track: (write) => pending.push(write) });
 * sink.append(Buffer.from('spilled text'));
 * sink.end();
 * await Promise.all(pending);
 * sink.writer.byteLength; // 12
 * ```
 */
export class SpillSink {
  readonly writer: SpoolWriter;
  readonly #track: (write: Promise<void>) => void;
  #scratch = Buffer.allocUnsafe(flushBytes);
  #used = 0;
  #length = 0;

  constructor(options: SpillSinkOptions) {
    this.writer = new SpoolWriter(options.writer ?? {});
    this.#track = options.track;
  }

  /** Bytes appended so far (written or waiting in the batch). */
  get byteLength(): number {
    return this.#length;
  }

  /** Appends `bytes[start, end)`; they are copied, so the caller may reuse its buffer. */
  append(bytes: Buffer, start = 0, end = bytes.length): void {
    this.#length += end - start;
    // Short runs (between escapes) are copied by hand: no native call, no view allocated.
    if (end - start <= 32 && this.#used + end - start <= flushBytes) {
      for (let index = start; index < end; index += 1)
        this.#scratch[this.#used++] = bytes[index] as number;
      if (this.#used === flushBytes) this.#flush();
      return;
    }
    let offset = start;
    while (offset < end) {
      const copied = bytes.copy(this.#scratch, this.#used, offset, end);
      this.#used += copied;
      offset += copied;
      if (this.#used === flushBytes) this.#flush();
    }
  }

  /** Appends a string whose characters are all below U+0100, one byte each. */
  appendLatin1(text: string): void {
    this.#length += text.length;
    let rest = text;
    while (rest.length > 0) {
      const written = this.#scratch.write(rest, this.#used, 'latin1');
      this.#used += written;
      rest = rest.slice(written);
      if (this.#used === flushBytes) this.#flush();
    }
  }

  /** Appends one byte. */
  appendByte(byte: number): void {
    this.#scratch[this.#used++] = byte;
    this.#length += 1;
    if (this.#used === flushBytes) this.#flush();
  }

  /** Writes what is batched and ends the spool. */
  end(): void {
    this.#flush();
    this.#track(this.writer.end());
  }

  /** Drops the spool and its temp file. */
  release(): void {
    this.#used = 0;
    this.#track(this.writer.close());
  }

  #flush(): void {
    if (this.#used === 0) return;
    // The batch is handed over whole and a fresh one started: the write may still be queued.
    this.#track(this.writer.write(this.#scratch.subarray(0, this.#used)));
    this.#scratch = Buffer.allocUnsafe(flushBytes);
    this.#used = 0;
  }
}
