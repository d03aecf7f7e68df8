import { createHash } from 'node:crypto';
import { changed } from './remote-identity.js';

/**
 * The guard of an object served without a validator (no ETag, no Last-Modified) against a
 * replacement of the same length: a digest of its first bytes as the first reply sent them,
 * compared whenever those bytes are downloaded again.
 *
 * @example
 * ```ts
 * const check = new FirstBlockCheck(head);
 * check.verify(label, await fetchRangeBytes(client, identity, { start: 0, end: check.length }, signal));
 * ```
 */
export class FirstBlockCheck {
  /** How many bytes from offset 0 are checked. */
  readonly length: number;
  readonly #digest: string;

  constructor(head: Uint8Array) {
    this.length = head.length;
    this.#digest = digest(head);
  }

  /** Throws `E_REMOTE_CHANGED` unless `bytes` (read from offset 0, `length` or more) begin the same. */
  verify(label: string, bytes: Uint8Array): void {
    if (digest(bytes.subarray(0, this.length)) !== this.#digest) {
      throw changed(label, `its first ${this.length} bytes are not what they were`);
    }
  }
}

function digest(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('base64');
}
