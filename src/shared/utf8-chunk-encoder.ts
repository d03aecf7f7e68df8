/**
 * UTF-8 encodes text that arrives in pieces: a surrogate pair split across two strings is kept
 * whole (the high half waits for the next piece) instead of becoming two U+FFFD.
 *
 * @example
 * ```ts
 * const encoder = new Utf8ChunkEncoder();
 * encoder.encode('smile \uD83D'); // 'smile ' — the high surrogate waits
 * encoder.encode('\uDE00!'); // '😀!'
 * encoder.flush(); // empty: nothing waits
 * ```
 */
export class Utf8ChunkEncoder {
  #pending = '';

  /** Encodes `text` after whatever waited, holding back a trailing high surrogate. */
  encode(text: string): Buffer {
    let whole = this.#pending + text;
    this.#pending = '';
    const last = whole.charCodeAt(whole.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) {
      this.#pending = whole.slice(-1);
      whole = whole.slice(0, -1);
    }
    return Buffer.from(whole, 'utf8');
  }

  /** What still waits (a lone high surrogate, as U+FFFD), before bytes or at the end. */
  flush(): Buffer {
    const pending = this.#pending;
    this.#pending = '';
    return Buffer.from(pending, 'utf8');
  }
}
