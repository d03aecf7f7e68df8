/**
 * The byte ranges `[start, end)` of the non-empty matches of `regex` (which must have the `g`
 * flag) in one line, left to right, as `grep -o` prints them: an empty match prints nothing and
 * the search goes on one character further. The line is matched as UTF-8 text, as the scan
 * matched it; each match is mapped back to the line's own bytes, invalid ones included.
 *
 * @example
 * ```ts
 * for (const [start, end] of matchRanges(/\d+/gs, Buffer.from('a1 b22'))) console.log(start, end); // 1 2, then 4 6
 * ```
 */
export function* matchRanges(regex: RegExp, line: Uint8Array): Generator<[number, number]> {
  const bytes = Buffer.from(line.buffer, line.byteOffset, line.byteLength);
  const text = bytes.toString('utf8');
  const offsets = text.length === bytes.length ? undefined : codeUnitOffsets(bytes);
  const byteAt = (index: number) => (offsets ? (offsets[index] ?? bytes.length) : index);
  regex.lastIndex = 0;
  for (let match = regex.exec(text); match; match = regex.exec(text)) {
    const end = match.index + match[0].length;
    if (end === match.index) {
      regex.lastIndex++;
      continue;
    }
    yield [byteAt(match.index), byteAt(end)];
  }
}

/**
 * For each UTF-16 code unit of `bytes` decoded as UTF-8, the offset of the byte it came from
 * (plus one entry for the end). Mirrors the decoder: a maximal invalid subsequence becomes one
 * U+FFFD, a character past U+FFFF two code units.
 */
function codeUnitOffsets(bytes: Uint8Array): Uint32Array {
  const offsets = new Uint32Array(bytes.length * 2 + 1);
  let units = 0;
  let position = 0;
  while (position < bytes.length) {
    const lead = bytes[position] ?? 0;
    const [length, lower, upper] = sequenceShape(lead);
    let next = position + 1;
    let low = lower;
    let high = upper;
    while (next < position + length && next < bytes.length) {
      const byte = bytes[next] ?? 0;
      if (byte < low || byte > high) break;
      low = 0x80;
      high = 0xbf;
      next++;
    }
    offsets[units++] = position;
    if (length === 4 && next === position + 4) offsets[units++] = position;
    position = next;
  }
  offsets[units] = bytes.length;
  return offsets.subarray(0, units + 1);
}

/** A lead byte's sequence length and the allowed range of the byte after it (WHATWG UTF-8). */
function sequenceShape(lead: number): [length: number, lower: number, upper: number] {
  if (lead >= 0xc2 && lead <= 0xdf) return [2, 0x80, 0xbf];
  if (lead >= 0xe0 && lead <= 0xef)
    return [3, lead === 0xe0 ? 0xa0 : 0x80, lead === 0xed ? 0x9f : 0xbf];
  if (lead >= 0xf0 && lead <= 0xf4)
    return [4, lead === 0xf0 ? 0x90 : 0x80, lead === 0xf4 ? 0x8f : 0xbf];
  return [1, 0x80, 0xbf];
}
