const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

/**
 * Decodes bytes for a model or an API caller: invalid sequences become U+FFFD.
 * Callers pass whole lines, so a character split across chunks is never cut.
 *
 * @example
 * ```ts
 * decodeUtf8(new Uint8Array([0x68, 0xff])); // 'h\uFFFD'
 * ```
 */
export function decodeUtf8(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

/**
 * Decodes the start of a line cut at any byte: a character the cut split is left out rather
 * than shown as U+FFFD (a streaming decoder holds it back, waiting for bytes that never come).
 *
 * @example
 * ```ts
 * decodeUtf8Prefix(new Uint8Array([0x68, 0xe2, 0x82])); // 'h' (the cut split '€')
 * ```
 */
export function decodeUtf8Prefix(bytes: Uint8Array): string {
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes, { stream: true });
}
