import { SpoolforgeError } from '../../shared/spoolforge-error.js';

/** The longest chunk-size line (hex size and extensions) or trailer line taken. */
const maxLineBytes = 4096;
const lineFeed = 0x0a;

/**
 * A `Transfer-Encoding: chunked` body decoded as it arrives: `push` takes the bytes of each read
 * and hands the data inside them to `onData` as views, copying nothing but the framing lines.
 * Sizes and lines are bounded; bad framing is `E_REMOTE_FAILED` naming `label`.
 *
 * @example
 * ```ts
 * const decoder = new ChunkedDecoder('http://127.0.0.1/a.log');
 * const parts: string[] = [];
 * decoder.push(Buffer.from('3\r\nabc\r\n0\r\n\r\n'), (data) => parts.push(String(data)) > 0);
 * // parts: ['abc']
 * decoder.done; // true
 * ```
 */
export class ChunkedDecoder {
  readonly #label: string;
  /** Data bytes left in the current chunk, or the state between chunks. */
  #left = 0;
  #state: 'size' | 'data' | 'data-end' | 'trailer' | 'done' = 'size';
  #line = '';

  constructor(label: string) {
    this.#label = label;
  }

  /** The last chunk and the trailers were read. */
  get done(): boolean {
    return this.#state === 'done';
  }

  /** Decodes `bytes`; returns `false` as soon as `onData` does. */
  push(bytes: Uint8Array, onData: (data: Uint8Array) => boolean): boolean {
    let at = 0;
    while (at < bytes.length && this.#state !== 'done') {
      if (this.#state === 'data') {
        const take = Math.min(this.#left, bytes.length - at);
        this.#left -= take;
        at += take;
        if (this.#left === 0) this.#state = 'data-end';
        if (!onData(bytes.subarray(at - take, at))) return false;
        continue;
      }
      const end = bytes.indexOf(lineFeed, at);
      const stop = end < 0 ? bytes.length : end;
      this.#line += Buffer.from(bytes.buffer, bytes.byteOffset + at, stop - at).toString('latin1');
      if (this.#line.length > maxLineBytes) throw this.#failure('a chunk line over 4 KiB');
      at = stop;
      if (end < 0) break;
      at++;
      const line = this.#line.endsWith('\r') ? this.#line.slice(0, -1) : this.#line;
      this.#line = '';
      this.#endLine(line);
    }
    return true;
  }

  #endLine(line: string): void {
    if (this.#state === 'data-end') {
      if (line !== '') throw this.#failure('chunk data longer than its size');
      this.#state = 'size';
    } else if (this.#state === 'trailer') {
      if (line === '') this.#state = 'done';
    } else {
      const size = /^([0-9a-fA-F]{1,12})[\t ]*(?:;.*)?$/.exec(line);
      if (!size) throw this.#failure('a malformed chunk size');
      this.#left = Number.parseInt(size[1] as string, 16);
      this.#state = this.#left === 0 ? 'trailer' : 'data';
    }
  }

  #failure(what: string): SpoolforgeError {
    return new SpoolforgeError('E_REMOTE_FAILED', `${this.#label}: the server sent ${what}`);
  }
}
