import { SpoolforgeError } from '../../shared/spoolforge-error.js';

/** The file's first bytes, `SFBP`, and the layout version `npm run build` writes. */
const magic = 0x50424653;
const version = 1;
const headerBytes = 16;
/** Slots per token in the hash table: under half full keeps linear probes short. */
const slotsPerToken = 2;
/** FNV-1a, 32 bits. */
const hashSeed = 0x811c9dc5;
const hashPrime = 0x01000193;

/**
 * A BPE vocabulary, bytes → rank, in flat arrays: the token bytes of the file
 * (`dist/tokens/<encoding>.bin`, written by `npm run build` from gpt-tokenizer's rank tables),
 * each rank's offset into them, and an open-addressing hash table of rank + 1 (0: empty).
 * o200k_base is 1.6 MB on disk and about 4 MiB in memory, against ~60 MiB for gpt-tokenizer's
 * strings and maps.
 *
 * @example
 * ```ts
 * const vocabulary = BpeVocabulary.parse('o200k_base', await readFile(path));
 * vocabulary.rank(new TextEncoder().encode('hello'), 0, 5); // 24912
 * ```
 */
export class BpeVocabulary {
  /** The longest token, in bytes: a longer run is never one token. */
  readonly maxTokenBytes: number;
  readonly #bytes: Uint8Array;
  readonly #offsets: Uint32Array;
  readonly #table: Uint32Array;
  readonly #mask: number;

  private constructor(bytes: Uint8Array, lengths: Uint8Array) {
    this.#bytes = bytes;
    this.#offsets = new Uint32Array(lengths.length + 1);
    let size = 1;
    while (size < lengths.length * slotsPerToken) size *= 2;
    this.#table = new Uint32Array(size);
    this.#mask = size - 1;
    let offset = 0;
    let maxTokenBytes = 0;
    for (let rank = 0; rank < lengths.length; rank++) {
      const length = lengths[rank] as number;
      this.#offsets[rank] = offset;
      // A length of 0: a rank gpt-tokenizer never produces, left out of the table.
      if (length > 0) this.#insert(rank, offset, offset + length);
      offset += length;
      maxTokenBytes = Math.max(maxTokenBytes, length);
    }
    this.#offsets[lengths.length] = offset;
    this.maxTokenBytes = maxTokenBytes;
  }

  /**
   * Reads a vocabulary file. A file of another layout or cut short (a damaged install) is
   * `E_IO`, naming `encoding`.
   */
  static parse(encoding: string, file: Uint8Array): BpeVocabulary {
    const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
    const valid =
      file.byteLength >= headerBytes &&
      view.getUint32(0, true) === magic &&
      view.getUint32(4, true) === version;
    const tokens = valid ? view.getUint32(8, true) : 0;
    const byteCount = valid ? view.getUint32(12, true) : 0;
    if (!valid || file.byteLength !== headerBytes + tokens + byteCount) {
      throw new SpoolforgeError(
        'E_IO',
        `the ${encoding} vocabulary file is damaged or of another version; reinstall spoolforge`,
      );
    }
    const lengths = file.subarray(headerBytes, headerBytes + tokens);
    return new BpeVocabulary(file.subarray(headerBytes + tokens), lengths);
  }

  /** The rank of the token `bytes[start, end)`, or -1 when it is none. */
  rank(bytes: Uint8Array, start: number, end: number): number {
    const length = end - start;
    if (length > this.maxTokenBytes) return -1;
    const table = this.#table;
    const offsets = this.#offsets;
    const vocabulary = this.#bytes;
    for (let slot = hashBytes(bytes, start, end) & this.#mask; ; slot = (slot + 1) & this.#mask) {
      const entry = table[slot] as number;
      if (entry === 0) return -1;
      const tokenStart = offsets[entry - 1] as number;
      if ((offsets[entry] as number) - tokenStart !== length) continue;
      let index = 0;
      while (index < length && vocabulary[tokenStart + index] === bytes[start + index]) index++;
      if (index === length) return entry - 1;
    }
  }

  /**
   * The rank gpt-tokenizer gives a merged pair `bytes[start, end)`: it looks valid UTF-8 up
   * as a string decoded with a leading byte order mark dropped, so `\uFEFFusing` finds the rank
   * of `using`, and the mark alone finds none. Without a leading mark, {@link rank}.
   */
  mergeRank(bytes: Uint8Array, start: number, end: number): number {
    if (bytes[start] !== 0xef || bytes[start + 1] !== 0xbb || bytes[start + 2] !== 0xbf) {
      return this.rank(bytes, start, end);
    }
    if (!isUtf8(bytes, start, end)) return this.rank(bytes, start, end);
    return end - start > 3 ? this.rank(bytes, start + 3, end) : -1;
  }

  #insert(rank: number, start: number, end: number): void {
    let slot = hashBytes(this.#bytes, start, end) & this.#mask;
    while (this.#table[slot] !== 0) slot = (slot + 1) & this.#mask;
    this.#table[slot] = rank + 1;
  }
}

function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let hash = hashSeed;
  for (let index = start; index < end; index++) {
    hash = Math.imul(hash ^ (bytes[index] as number), hashPrime);
  }
  // FNV's low bits mix poorly; fold the high ones in before masking.
  return (hash ^ (hash >>> 15)) >>> 0;
}

/** Whether `bytes[start, end)` is valid UTF-8 (no overlong form, surrogate or code point past U+10FFFF). */
function isUtf8(bytes: Uint8Array, start: number, end: number): boolean {
  let index = start;
  while (index < end) {
    const lead = bytes[index] as number;
    if (lead < 0x80) {
      index++;
      continue;
    }
    const length = lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : 4;
    if (lead < 0xc2 || lead > 0xf4 || index + length > end) return false;
    let codePoint = lead & (0xff >> (length + 1));
    for (let next = index + 1; next < index + length; next++) {
      const byte = bytes[next] as number;
      if ((byte & 0xc0) !== 0x80) return false;
      codePoint = (codePoint << 6) | (byte & 0x3f);
    }
    const overlong = codePoint < (length === 3 ? 0x800 : 0x10000);
    if (length > 2 && (overlong || (codePoint >= 0xd800 && codePoint <= 0xdfff))) return false;
    if (codePoint > 0x10ffff) return false;
    index += length;
  }
  return true;
}
