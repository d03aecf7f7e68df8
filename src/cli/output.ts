import type { Writable } from 'node:stream';

/**
 * Buffered binary output for the CLI: lines are copied into 64 KiB blocks so a million matches
 * cost a few hundred writes, and `drain()` applies the consumer's back-pressure between input
 * blocks. A closed pipe (`| head`) ends the output quietly.
 *
 * @example
 * ```ts
 * const output = new Output(process.stdout);
 * output.write(lineBytes);
 * output.writeText('\n');
 * await output.end();
 * ```
 */
export class Output {
  static readonly blockSize = 64 * 1024;
  readonly #stream: Writable;
  #block = Buffer.allocUnsafe(Output.blockSize);
  #length = 0;
  #closed = false;
  #error: Error | undefined;

  constructor(stream: Writable) {
    this.#stream = stream;
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') this.#error = error;
      this.#closed = true;
    });
  }

  /** True once the reader went away; callers stop producing. */
  get closed(): boolean {
    return this.#closed;
  }

  write(bytes: Uint8Array): void {
    if (this.#length + bytes.length > this.#block.length) this.#flush();
    if (bytes.length >= this.#block.length) {
      this.#send(Buffer.from(bytes));
      return;
    }
    this.#block.set(bytes, this.#length);
    this.#length += bytes.length;
  }

  /** ASCII text (prefixes, counts, separators). */
  writeText(text: string): void {
    if (this.#length + text.length > this.#block.length) this.#flush();
    this.#length += this.#block.write(text, this.#length, 'latin1');
  }

  /** Flushes and waits until the stream can take more. */
  async drain(): Promise<void> {
    this.#flush();
    if (this.#closed || !this.#stream.writableNeedDrain) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        this.#stream.off('drain', done).off('close', done).off('error', done);
        resolve();
      };
      this.#stream.on('drain', done).on('close', done).on('error', done);
    });
  }

  /**
   * Flushes everything down to the operating system (so exiting right after loses nothing on a
   * slow pipe); rejects if writing failed for a reason other than a closed pipe.
   */
  async end(): Promise<void> {
    this.#flush();
    if (!this.#closed) {
      // Write callbacks run in order, so this one fires once everything before it is written.
      await new Promise<void>((resolve) => this.#stream.write(Buffer.alloc(0), () => resolve()));
    }
    if (this.#error) throw this.#error;
  }

  #flush(): void {
    if (this.#length === 0) return;
    this.#send(this.#block.subarray(0, this.#length));
    this.#block = Buffer.allocUnsafe(Output.blockSize);
    this.#length = 0;
  }

  #send(bytes: Uint8Array): void {
    if (!this.#closed) this.#stream.write(bytes);
  }
}
