/**
 * Text safe inside SVG elements and attributes.
 *
 * @example
 * ```ts
 * escapeXml('a < b'); // 'a &lt; b'
 * ```
 */
export function escapeXml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (character) =>
      ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character] ??
      character,
  );
}
