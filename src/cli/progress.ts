import type { WriteStream } from 'node:tty';
import { formatBytes } from '../shared/format-bytes.js';

/**
 * Progress of a long scan on standard error, only when it is a terminal and only after the
 * first second, so piped or quick runs print nothing extra.
 *
 * @example
 * ```ts
 * const progress = new Progress(process.stderr, totalBytes);
 * progress.update(bytesScanned);
 * progress.done();
 * ```
 */
export class Progress {
  readonly #stream: WriteStream | undefined;
  readonly #total: number | undefined;
  readonly #startedAt = Date.now();
  #lastShownAt = 0;
  #shown = false;

  constructor(stream: NodeJS.WriteStream, total: number | undefined) {
    this.#stream = stream.isTTY ? stream : undefined;
    this.#total = total;
  }

  update(bytes: number): void {
    const now = Date.now();
    if (!this.#stream || now - this.#startedAt < 1000 || now - this.#lastShownAt < 200) return;
    this.#lastShownAt = now;
    this.#shown = true;
    const total = this.#total;
    const share = total ? ` of ${formatBytes(total)} (${Math.floor((bytes / total) * 100)}%)` : '';
    this.#stream.write(`\r\x1b[Kspoolforge: scanned ${formatBytes(bytes)}${share}`);
  }

  done(): void {
    if (this.#shown) this.#stream?.write('\r\x1b[K');
  }
}
