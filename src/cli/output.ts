import type { Writable } from 'node:stream';
import { fs } from '../shared/node-fs.js';

/**
 * Buffered binary output for the CLI: lines are copied into 64 KiB blocks so a million matches
 * cost a few hundred writes, and `drain()` applies the consumer's back-pressure between input
 * blocks. A closed pipe (`| head`) ends the output quietly.
 *
 * Blocks are written to the file descriptor with `writeSync`, as Node writes a file, a pipe or
 * a terminal on standard output anyway, without creating the stream (a few milliseconds of a
 * `tail`'s start-up); a descriptor that would block (`EAGAIN`) hands over to `stream()`.
 *
 * @example
 * ```ts
 * const output = new Output(1, () => process.stdout);
 * output.write(lineBytes);
 * output.writeText('\n');
 * await output.end();
 * ```
 */
export class Output {
  static readonly blockSize = 64 * 1024;
  /** Undefined once writing went over to the stream. */
  #descriptor: number | undefined;
  readonly #openStream: () => Writable;
  #stream: Writable | undefined;
  #block = Buffer.allocUnsafe(Output.blockSize);
  #length = 0;
  #closed = false;
  #error: Error | undefined;

  /** `stream` opens the stream the same descriptor is written through after `EAGAIN`. */
  constructor(descriptor: number, stream: () => Writable) {
    this.#descriptor = descriptor;
    this.#openStream = stream;
  }

  /** True once the reader went away; callers stop producing. */
  get closed(): boolean {
    return this.#closed;
  }

  write(bytes: Uint8Array): void {
    if (this.#length + bytes.length > this.#block.length) this.#flush();
    if (bytes.length >= this.#block.length) {
      this.#send(bytes, false);
      return;
    }
    this.#block.set(bytes, this.#length);
    this.#length += bytes.length;
  }

  /** ASCII text (counts, separators, usage). */
  writeText(text: string): void {
    if (this.#length + text.length > this.#block.length) this.#flush();
    this.#length += this.#block.write(text, this.#length, 'latin1');
  }

  /** Text in UTF-8 (JSON values, Markdown lines). */
  writeUtf8(text: string): void {
    // At most 3 bytes per UTF-16 code unit: a string that surely fits is encoded in place.
    if (text.length * 3 >= this.#block.length) {
      this.write(Buffer.from(text, 'utf8'));
      return;
    }
    if (this.#length + text.length * 3 > this.#block.length) this.#flush();
    this.#length += this.#block.write(text, this.#length, 'utf8');
  }

  /**
   * A line's prefix or end without building a string: `value` (a non-negative safe integer,
   * at most 16 digits) in decimal when given, then `byte` (`:` after a line number, `\n` after
   * a line). Called twice per printed line, so it stores bytes itself rather than call into
   * `Buffer.write`.
   */
  writeByte(byte: number, value?: number): void {
    if (this.#length + 17 > this.#block.length) this.#flush();
    const block = this.#block;
    if (value !== undefined) {
      let digits = 1;
      for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) digits++;
      for (
        let position = this.#length + digits - 1, rest = value;
        position >= this.#length;
        position--
      ) {
        block[position] = 0x30 + (rest % 10);
        rest = Math.floor(rest / 10);
      }
      this.#length += digits;
    }
    block[this.#length++] = byte;
  }

  /** Flushes and waits until the stream can take more. */
  async drain(): Promise<void> {
    this.#flush();
    const stream = this.#stream;
    if (this.#closed || !stream?.writableNeedDrain) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        stream.off('drain', done).off('close', done).off('error', done);
        resolve();
      };
      stream.on('drain', done).on('close', done).on('error', done);
    });
  }

  /**
   * Flushes everything down to the operating system (so exiting right after loses nothing on a
   * slow pipe); rejects if writing failed for a reason other than a closed pipe.
   */
  async end(): Promise<void> {
    this.#flush();
    const stream = this.#stream;
    if (!this.#closed && stream) {
      // Write callbacks run in order, so this one fires once everything before it is written.
      await new Promise<void>((resolve) => stream.write(Buffer.alloc(0), () => resolve()));
    }
    if (this.#error) throw this.#error;
  }

  #flush(): void {
    if (this.#length === 0) return;
    this.#send(this.#block.subarray(0, this.#length), true);
    // writeSync is done with the block; a stream may still hold it, so it gets a new one.
    if (this.#stream) this.#block = Buffer.allocUnsafe(Output.blockSize);
    this.#length = 0;
  }

  /**
   * `owned`: the bytes are this output's own block, never reused. Others are copied when they
   * go to the stream, which writes later, after the caller may have reused them (a parallel
   * scan hands its batch back to the worker); `writeSync` is done with them on return.
   */
  #send(bytes: Uint8Array, owned: boolean): void {
    if (this.#closed) return;
    let written = 0;
    while (this.#descriptor !== undefined && written < bytes.length) {
      try {
        written += fs.writeSync(this.#descriptor, bytes, written);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EAGAIN') this.#useStream();
        else this.#fail(error as NodeJS.ErrnoException);
      }
    }
    if (this.#stream && !this.#closed && written < bytes.length) {
      const rest = bytes.subarray(written);
      this.#stream.write(owned ? rest : Buffer.from(rest));
    }
  }

  #useStream(): void {
    this.#descriptor = undefined;
    this.#stream = this.#openStream();
    this.#stream.on('error', (error: NodeJS.ErrnoException) => this.#fail(error));
  }

  #fail(error: NodeJS.ErrnoException): void {
    if (error.code !== 'EPIPE') this.#error = error;
    this.#closed = true;
    this.#descriptor = undefined;
  }
}
