const quote = 0x22;
const backslash = 0x5c;

/**
 * Finds where a JSON string closes: the next `"` not escaped by a `\`, with `indexOf` (memchr
 * speed) for both bytes. An escape cut by the end of a chunk carries into the next one; the
 * positions found are kept for the chunk, so escape-dense text is searched once.
 *
 * @example
 * ```ts
 * const finder = new StringEndFinder();
 * const chunk = Buffer.from('say \\"hi\\"" rest');
 * finder.newChunk();
 * finder.find(chunk, 0, chunk.length); // 10: the quote after the escaped ones
 * ```
 */
export class StringEndFinder {
  #escaped = false;
  #quoteAt = -1;
  #backslashAt = -1;

  /** Forgets the positions found: the next {@link StringEndFinder.find} is in a new chunk. */
  newChunk(): void {
    this.#quoteAt = -1;
    this.#backslashAt = -1;
  }

  /** Forgets an escape in flight: a new line starts. */
  reset(): void {
    this.#escaped = false;
  }

  /** The closing quote of the open string in `buffer[index, end)`, or -1 if it is not there. */
  find(buffer: Buffer, index: number, end: number): number {
    let position = index;
    while (position < end) {
      if (this.#escaped) {
        this.#escaped = false;
        position += 1;
        continue;
      }
      if (this.#quoteAt < position) this.#quoteAt = indexOrLength(buffer, quote, position);
      if (this.#backslashAt < position)
        this.#backslashAt = indexOrLength(buffer, backslash, position);
      if (this.#backslashAt >= this.#quoteAt || this.#backslashAt >= end) {
        return this.#quoteAt < end ? this.#quoteAt : -1;
      }
      position = this.#backslashAt + 1;
      this.#escaped = true;
    }
    return -1;
  }
}

function indexOrLength(buffer: Buffer, byte: number, from: number): number {
  const found = buffer.indexOf(byte, from);
  return found === -1 ? buffer.length : found;
}
