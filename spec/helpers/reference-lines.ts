/**
 * The line semantics every query shares (a line ends at `\n`; a final line without one still counts), written the obvious way over a whole buffer: the oracle the
 * streaming engine is checked against.
 */
export function referenceLines(bytes: Uint8Array): Uint8Array[] {
  if (bytes.length === 0) return [];
  const lines: Uint8Array[] = [];
  let start = 0;
  for (let index = 0; index < bytes.length; index++) {
    if (bytes[index] === 0x0a) {
      lines.push(bytes.subarray(start, index));
      start = index + 1;
    }
  }
  if (start < bytes.length) lines.push(bytes.subarray(start));
  return lines;
}

/** The oracle's lines decoded the way a model sees them. */
export function referenceTextLines(bytes: Uint8Array): string[] {
  const decoder = new TextDecoder();
  return referenceLines(bytes).map((line) => decoder.decode(line));
}

/** The start offsets of the lines of `bytes` that `regex` matches, each tested on its own. */
export function referenceMatchingLines(regex: RegExp, bytes: Uint8Array): number[] {
  const decoder = new TextDecoder();
  const starts: number[] = [];
  let start = 0;
  for (const line of referenceLines(bytes)) {
    if (regex.test(decoder.decode(line))) starts.push(start);
    start += line.length + 1;
  }
  return starts;
}
