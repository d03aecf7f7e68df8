import type { Writable } from 'node:stream';
import { formatBytes } from '../../shared/format-bytes.js';

/** What may wait in this process's stderr before upstream stderr is dropped. */
const maxPendingBytes = 1024 * 1024;

/**
 * Passes upstream servers' stderr on to this process's stderr, holding at most 1 MiB that
 * stderr has not taken yet: past it, chunks are dropped, and once it drains a line says how
 * many bytes were. A server flooding stderr while nobody reads the proxy's would otherwise
 * grow the proxy's memory by as much; the server itself is never held up.
 *
 * @example
 * ```ts
 * const relay = new StderrRelay(process.stderr);
 * relay.write(Buffer.from('server: listening\n'));
 * ```
 */
export class StderrRelay {
  readonly #target: Writable;
  #dropped = 0;

  constructor(target: Writable) {
    this.#target = target;
  }

  /** Writes `chunk`, or drops it while 1 MiB or more is pending. */
  write(chunk: Uint8Array): void {
    const target = this.#target;
    if (target.writableLength < maxPendingBytes) {
      target.write(chunk);
      return;
    }
    if (this.#dropped === 0) target.once('drain', () => this.#report());
    this.#dropped += chunk.length;
  }

  #report(): void {
    const bytes = this.#dropped;
    this.#dropped = 0;
    this.#target.write(
      `spoolforge: dropped ${bytes} bytes (${formatBytes(bytes)}) of upstream stderr: this process's stderr was not read fast enough\n`,
    );
  }
}

/** The relay of every upstream to this process's stderr, which they share. */
export const processStderrRelay = new StderrRelay(process.stderr);
