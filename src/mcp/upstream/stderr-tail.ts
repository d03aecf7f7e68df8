/** How much of a server's stderr is kept: enough for the last few lines of a stack trace. */
const tailBytes = 4 * 1024;

/**
 * The last 4 KiB of a stream (an upstream server's stderr), to say why it stopped.
 *
 * @example
 * ```ts
 * const tail = new StderrTail();
 * tail.push(Buffer.from('fatal: no config\n'));
 * tail.text(); // 'fatal: no config\n'
 * ```
 */
export class StderrTail {
  #bytes = Buffer.alloc(0);

  /** Adds a chunk, dropping what falls out of the window. */
  push(chunk: Buffer): void {
    const joined = Buffer.concat([
      this.#bytes,
      chunk.subarray(Math.max(0, chunk.length - tailBytes)),
    ]);
    this.#bytes = joined.subarray(Math.max(0, joined.length - tailBytes));
  }

  /** The kept bytes as text; a character cut at the window's start is left out. */
  text(): string {
    return this.#bytes.toString('utf8').replace(/^\uFFFD+/, '');
  }
}
