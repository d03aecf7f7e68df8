/** A buffer that grew past this is dropped after its message, not kept for the next one. */
const keptCapacity = 1024 * 1024;

/**
 * A growable byte buffer for the JSON text of one message without its diverted values.
 *
 * @example
 * ```ts
 * const skeleton = new SkeletonBuffer();
 * skeleton.append(Buffer.from('{"a":1}'), 0, 7);
 * skeleton.text(); // '{"a":1}'
 * ```
 */
export class SkeletonBuffer {
  #bytes = Buffer.allocUnsafe(64 * 1024);
  #length = 0;

  /** Bytes held. */
  get length(): number {
    return this.#length;
  }

  /** Appends `source[start, end)`. */
  append(source: Uint8Array, start: number, end: number): void {
    this.#reserve(end - start);
    this.#bytes.set(source.subarray(start, end), this.#length);
    this.#length += end - start;
  }

  /** Appends a string as UTF-8. */
  appendText(text: string): void {
    this.#reserve(Buffer.byteLength(text));
    this.#length += this.#bytes.write(text, this.#length);
  }

  /** The bytes from `start` to the end (a view, valid until the next change). */
  tail(start: number): Buffer {
    return this.#bytes.subarray(start, this.#length);
  }

  /** True if it holds only JSON whitespace (a blank line). */
  isBlank(): boolean {
    for (let index = 0; index < this.#length; index += 1) {
      const byte = this.#bytes[index];
      if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0d && byte !== 0x0a) return false;
    }
    return true;
  }

  /** Cuts the buffer back to `length` bytes. */
  truncate(length: number): void {
    this.#length = Math.min(this.#length, length);
  }

  /** The bytes as UTF-8 text. */
  text(): string {
    return this.#bytes.toString('utf8', 0, this.#length);
  }

  /** Empties the buffer, giving back the memory of a big message. */
  reset(): void {
    this.#length = 0;
    if (this.#bytes.length > keptCapacity) this.#bytes = Buffer.allocUnsafe(64 * 1024);
  }

  #reserve(extra: number): void {
    const needed = this.#length + extra;
    if (needed <= this.#bytes.length) return;
    const grown = Buffer.allocUnsafe(Math.max(needed, this.#bytes.length * 2));
    this.#bytes.copy(grown, 0, 0, this.#length);
    this.#bytes = grown;
  }
}
