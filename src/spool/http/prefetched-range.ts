/**
 * A download that runs in the background from the moment it is made, its chunks kept until
 * they are consumed in order: read-ahead that a scan can start reading before it completes.
 *
 * @example
 * ```ts
 * const part = new PrefetchedRange((onChunk) => fetchRange(client, identity, range, signal, onChunk));
 * for await (const chunk of part.chunks()) scan(chunk);
 * ```
 */
export class PrefetchedRange {
  readonly #chunks: Uint8Array[] = [];
  #finished = false;
  #failure: { error: unknown } | undefined;
  #wake: (() => void) | undefined;

  constructor(download: (onChunk: (chunk: Uint8Array) => void) => Promise<void>) {
    download((chunk) => {
      this.#chunks.push(chunk);
      this.#notify();
    }).then(
      () => this.#finish(undefined),
      (error: unknown) => this.#finish({ error }),
    );
  }

  /** The chunks in order, waiting for those still on the way; rethrows the download's failure. */
  async *chunks(): AsyncGenerator<Uint8Array> {
    for (;;) {
      const chunk = this.#chunks.shift();
      if (chunk) {
        yield chunk;
        continue;
      }
      if (this.#failure) throw this.#failure.error;
      if (this.#finished) return;
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
    }
  }

  #finish(failure: { error: unknown } | undefined): void {
    this.#failure = failure;
    this.#finished = true;
    this.#notify();
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}
