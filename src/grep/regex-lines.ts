/**
 * Text is decoded a slice at a time: strings this small die young in V8's nursery, where a
 * whole 4 MiB block would land in large-object space and pile up until a full GC.
 */
const sliceBytes = 64 * 1024;

/**
 * The start offsets of the lines of `bytes` (whole lines) that `regex` matches, decoding a
 * slice at a time. Shared by the regex worker and the in-thread matcher.
 *
 * @example
 * ```ts
 * const starts = regexMatchingLines(/ERROR \d+/s, block);
 * ```
 */
export function regexMatchingLines(regex: RegExp, bytes: Buffer): number[] {
  const starts: number[] = [];
  for (let sliceStart = 0; sliceStart < bytes.length; ) {
    const newlineAfter = bytes.indexOf(0x0a, Math.min(bytes.length, sliceStart + sliceBytes));
    const sliceEnd = newlineAfter === -1 ? bytes.length : newlineAfter + 1;
    matchSlice(regex, bytes, sliceStart, sliceEnd, starts);
    sliceStart = sliceEnd;
  }
  return starts;
}

/** Pushes the byte offsets of the matching lines of `bytes[start, end)`, which holds whole lines. */
function matchSlice(regex: RegExp, bytes: Buffer, start: number, end: number, starts: number[]) {
  const text = bytes.toString('utf8', start, end);
  // Equal lengths mean one character per byte (ASCII, or single invalid bytes as U+FFFD), so
  // text positions are byte positions; otherwise walk the bytes' newlines alongside: `\n` is
  // never part of a multi-byte sequence, so the k-th newline of each is the same.
  const oneToOne = text.length === end - start;
  let textStart = 0;
  let byteStart = start;
  while (textStart < text.length) {
    let textEnd = text.indexOf('\n', textStart);
    if (textEnd === -1) textEnd = text.length;
    if (regex.test(text.slice(textStart, textEnd))) {
      starts.push(oneToOne ? start + textStart : byteStart);
    }
    textStart = textEnd + 1;
    if (!oneToOne) {
      const byteEnd = bytes.indexOf(0x0a, byteStart);
      byteStart = byteEnd === -1 ? end : byteEnd + 1;
    }
  }
}
