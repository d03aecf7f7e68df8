/** Bytes at the start of a block whose byte counts rank a needle's bytes. */
const sampleBytes = 64 * 1024;

/**
 * Where in `needle` the byte to search for first is: the one that occurs least often in a
 * sample of `block` (with `foldCase`, an ASCII letter counts in both cases), ties going to the
 * byte rarer in logs and prose. A fixed ranking guesses wrong on real logs: `q` looks rare in
 * English, yet every `req=` of a request log has one, and `_` beats every letter of
 * `fatal_disk_quota` there.
 *
 * @example
 * ```ts
 * needleAnchor(Buffer.from('quota'), Buffer.from('req=1 req=2\n')); // 1: no 'u' there, a 'q' in each req=
 * ```
 */
export function needleAnchor(needle: Uint8Array, block: Uint8Array, foldCase = false): number {
  const counts = new Uint32Array(256);
  const end = Math.min(block.length, sampleBytes);
  for (let index = 0; index < end; index++) {
    const byte = block[index] as number;
    counts[byte] = (counts[byte] as number) + 1;
  }
  let anchor = 0;
  let anchorCount = Number.POSITIVE_INFINITY;
  for (let index = 0; index < needle.length; index++) {
    const byte = needle[index] as number;
    const count =
      (counts[byte] as number) +
      (foldCase && isAsciiLetter(byte) ? (counts[byte ^ 0x20] as number) : 0);
    if (
      count < anchorCount ||
      (count === anchorCount && byteRarity(byte) > byteRarity(needle[anchor] as number))
    ) {
      anchor = index;
      anchorCount = count;
    }
  }
  return anchor;
}

/**
 * The second byte the SIMD pair filter compares beside a needle's first: the one whose pair
 * with the first byte, at its distance, occurs least often in a sample of `block` (with
 * `foldCase`, in either case), ties going to the farthest. The rarest single byte can make a
 * common pair: every line of an access log holds `upstream_status=`, so `upstream_status=5`
 * wants `u` and the `5` sixteen bytes on, which few lines hold. 0 for a one-byte needle.
 *
 * @example
 * ```ts
 * pairAnchor(Buffer.from('status=5'), Buffer.from('status=200\nstatus=503\n')); // 7
 * ```
 */
export function pairAnchor(needle: Uint8Array, block: Uint8Array, foldCase = false): number {
  const fold = (byte: number) => (foldCase && isAsciiLetter(byte) ? byte | 0x20 : byte);
  const first = fold(needle[0] as number);
  const end = Math.min(block.length, sampleBytes);
  const starts: number[] = [];
  for (let index = 0; index < end; index++) {
    if (fold(block[index] as number) === first) starts.push(index);
  }
  let pair = needle.length > 1 ? needle.length - 1 : 0;
  let pairCount = Number.POSITIVE_INFINITY;
  for (let distance = needle.length - 1; distance >= 1; distance--) {
    const byte = fold(needle[distance] as number);
    let count = 0;
    for (const start of starts) {
      if (start + distance < end && fold(block[start + distance] as number) === byte) count++;
    }
    if (count < pairCount) {
      pair = distance;
      pairCount = count;
    }
  }
  return pair;
}

const isAsciiLetter = (byte: number) => (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7a;

/**
 * How good an anchor a literal's rarest byte makes, higher is better: of several literals a
 * line must contain, the one to search for first.
 *
 * @example
 * ```ts
 * literalRarity(Buffer.from('ERROR ')) > literalRarity(Buffer.from('timeout')); // true
 * ```
 */
export function literalRarity(literal: Uint8Array): number {
  return literal.reduce((rarest, byte) => Math.max(rarest, byteRarity(byte)), -1);
}

/**
 * How rare a byte is in logs and prose, higher is rarer: upper-case letters, then lower-case
 * ones, each by English letter frequency; bytes of non-ASCII characters; digits, spaces and
 * punctuation, which fill logs, last.
 */
function byteRarity(byte: number): number {
  const letter = letterFrequency.indexOf(String.fromCharCode(byte | 0x20));
  if (byte >= 0x41 && byte <= 0x5a) return 40 + letter;
  if (byte >= 0x61 && byte <= 0x7a) return letter;
  return byte >= 0x80 ? 30 : -1;
}

/** Letters from most to least frequent in English text: the last ones make the best anchors. */
const letterFrequency = 'etaoinsrhldcumfpgwybvkxjqz';
