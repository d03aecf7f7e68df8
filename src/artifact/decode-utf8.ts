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
