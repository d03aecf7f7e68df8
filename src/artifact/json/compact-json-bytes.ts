/**
 * A string with none of these (a quote, a backslash, a control character, a lone surrogate) is
 * written by `JSON.stringify` as it is, between quotes.
 */
const escaped = /["\\\p{Cc}\p{Cs}]/u;

/**
 * The UTF-8 bytes of `JSON.stringify(value)` for a value `JSON.parse` made (no `undefined`,
 * functions or `toJSON`), counted without building the text, and only until they pass
 * `limit`: exact up to `limit`, some number over it past (a value of many MiB is weighed in
 * the time its first `limit` bytes take). Iterative, so no depth overflows its stack.
 *
 * @example
 * ```ts
 * compactJsonBytes({ id: 7, tags: ['a', 'é'] }); // 26, as Buffer.byteLength(JSON.stringify(…))
 * compactJsonBytes(rows, 1024 * 1024) > 1024 * 1024; // rows' JSON is over 1 MiB
 * ```
 */
export function compactJsonBytes(value: unknown, limit = Number.POSITIVE_INFINITY): number {
  let bytes = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0 && bytes <= limit) {
    const next = pending.pop();
    if (typeof next === 'string') bytes += stringBytes(next);
    else if (typeof next === 'number') bytes += Number.isFinite(next) ? String(next).length : 4;
    else if (typeof next === 'boolean') bytes += next ? 4 : 5;
    else if (next === null || typeof next !== 'object')
      bytes += 4; // null
    else if (Array.isArray(next)) {
      // Brackets and commas, then the elements.
      bytes += 1 + Math.max(next.length, 1);
      if (bytes > limit) break;
      for (let index = next.length - 1; index >= 0; index--) pending.push(next[index]);
    } else {
      // Braces, commas and colons, then each member's key and value.
      const keys = Object.keys(next);
      bytes += 1 + Math.max(keys.length, 1) + keys.length;
      for (let index = keys.length - 1; index >= 0 && bytes <= limit; index--) {
        const key = keys[index] as string;
        bytes += stringBytes(key);
        pending.push((next as Record<string, unknown>)[key]);
      }
    }
  }
  return bytes;
}

/** `JSON.stringify(text)`'s UTF-8 bytes: quotes, escapes, a lone surrogate as `\udXXX`. */
function stringBytes(text: string): number {
  // Buffer.byteLength counts a lone surrogate as U+FFFD's 3 bytes.
  let bytes = Buffer.byteLength(text) + 2;
  if (!escaped.test(text)) return bytes;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 0x22 || code === 0x5c) bytes += 1;
    else if (code < 0x20) bytes += code >= 8 && code <= 13 && code !== 11 ? 1 : 5;
    else if (code >= 0xd800 && code <= 0xdfff) {
      const low = text.charCodeAt(index + 1);
      if (code <= 0xdbff && low >= 0xdc00 && low <= 0xdfff) index++;
      else bytes += 3;
    }
  }
  return bytes;
}
