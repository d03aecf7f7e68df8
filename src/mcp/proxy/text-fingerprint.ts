import { createHash, type Hash } from 'node:crypto';
import type { DecodedBytesSink } from '../upstream/json-string-decoder.js';
import type { SpilledValue } from '../upstream/spilled-values.js';

/**
 * A text's UTF-8 length and SHA-256: two texts compare by these without either being in
 * memory (a diverted value is read from its spool once).
 *
 * @example
 * ```ts
 * const same = (await fingerprintOf('abc')).digest === (await fingerprintOf(spilledValue)).digest;
 * ```
 */
export interface TextFingerprint {
  byteLength: number;
  digest: string;
}

/** The fingerprint of a string, or of a diverted string value read from its spool. */
export async function fingerprintOf(
  text: string | SpilledValue,
  signal?: AbortSignal,
): Promise<TextFingerprint> {
  const hash = createHash('sha256');
  if (typeof text === 'string') {
    const bytes = Buffer.from(text);
    return { byteLength: bytes.byteLength, digest: hash.update(bytes).digest('hex') };
  }
  for await (const chunk of text.stream(signal ? { signal } : {})) hash.update(chunk);
  return { byteLength: text.byteLength, digest: hash.digest('hex') };
}

/** Bytes gathered before one hash update: escapes come a byte at a time. */
const batchBytes = 64 * 1024;

/**
 * Takes the decoded bytes of one JSON string after another and says whether each had one of
 * the `wanted` fingerprints. Bytes are hashed in batches of 64 KiB, and only up to the longest
 * wanted length (past it they are dropped as they come), so memory stays flat whatever the
 * string's size; a string shorter than every wanted one is never hashed.
 *
 * @example
 * ```ts
 * const sink = new FingerprintSink([await fingerprintOf(text)]);
 * const decoder = new JsonStringDecoder(sink);
 * decoder.write(rawContent);
 * decoder.end();
 * sink.matched(); // true when rawContent decodes to text
 * ```
 */
export class FingerprintSink implements DecodedBytesSink {
  readonly #lengths: Set<number>;
  readonly #digests: Set<string>;
  readonly #longest: number;
  readonly #batch = Buffer.allocUnsafe(batchBytes);
  #used = 0;
  #length = 0;
  #hash: Hash | undefined;

  constructor(wanted: readonly TextFingerprint[]) {
    this.#lengths = new Set(wanted.map((print) => print.byteLength));
    this.#digests = new Set(wanted.map((print) => print.digest));
    this.#longest = Math.max(0, ...this.#lengths);
  }

  /** Forgets the string read: the next bytes are a new one's. */
  reset(): void {
    this.#length = 0;
    this.#used = 0;
    this.#hash = undefined;
  }

  append(bytes: Buffer, start = 0, end = bytes.length): void {
    this.#length += end - start;
    if (this.#length > this.#longest) return;
    let offset = start;
    while (offset < end) {
      const copied = bytes.copy(this.#batch, this.#used, offset, end);
      this.#used += copied;
      offset += copied;
      if (this.#used === batchBytes) this.#flush();
    }
  }

  appendLatin1(text: string): void {
    this.append(Buffer.from(text, 'latin1'));
  }

  appendByte(byte: number): void {
    this.#length += 1;
    if (this.#length > this.#longest) return;
    this.#batch[this.#used++] = byte;
    if (this.#used === batchBytes) this.#flush();
  }

  /** Whether the string read since the last reset has one of the wanted fingerprints. */
  matched(): boolean {
    if (!this.#lengths.has(this.#length)) return false;
    this.#flush();
    return this.#digests.has((this.#hash ?? createHash('sha256')).digest('hex'));
  }

  #flush(): void {
    if (this.#used === 0) return;
    this.#hash ??= createHash('sha256');
    this.#hash.update(this.#batch.subarray(0, this.#used));
    this.#used = 0;
  }
}
