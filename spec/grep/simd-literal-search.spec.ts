import { describe, expect, it } from 'vitest';
import { CaseFoldingBytesLineMatcher } from '../../src/grep/case-folding-bytes-line-matcher.js';
import { BytesLineMatcher } from '../../src/grep/line-matcher.js';
import { SimdLiteralSearch } from '../../src/grep/simd-literal-search.js';
import { countableBuffer } from '../../src/spool/simd-newline-count.js';
import { seededRandom } from '../helpers/seeded-random.js';

/** The obvious answer: each line holding the needle as [start, first hit, end], byte by byte. */
function reference(bytes: Uint8Array, needle: Uint8Array, foldCase = false): number[][] {
  const lines: number[][] = [];
  const fold = (byte: number) => (foldCase && byte >= 0x41 && byte <= 0x5a ? byte | 0x20 : byte);
  const occursAt = (at: number) =>
    at + needle.length <= bytes.length &&
    needle.every((byte, index) => fold(bytes[at + index] as number) === fold(byte));
  let lineStart = 0;
  for (let at = 0; at < bytes.length; at++) {
    if (!occursAt(at)) continue;
    let start = at;
    while (start > lineStart && bytes[start - 1] !== 0x0a) start--;
    let end = at;
    while (end < bytes.length && bytes[end] !== 0x0a) end++;
    lines.push([start, at, end]);
    lineStart = end + 1;
    at = end;
  }
  return lines;
}

function visited(search: SimdLiteralSearch, block: Uint8Array): number[][] | undefined {
  const lines: number[][] = [];
  const count = search.visitLines(block, (start, hit, end) => lines.push([start, hit, end]));
  if (count === undefined) return undefined;
  expect(count).toBe(lines.length);
  expect(search.countLines(block)).toBe(count);
  expect(Array.from(search.lineStarts(block) ?? [])).toEqual(lines.map(([start]) => start));
  return lines;
}

/** Bytes of log text's kind: lines, CRLF, invalid UTF-8 and the needle's bytes, in a small alphabet. */
const alphabet = [0x0a, 0x0d, 0x45, 0x52, 0x4f, 0x61, 0x20, 0xff, 0xc3, 0x28];

describe('SimdLiteralSearch', () => {
  it('finds what a byte-by-byte search finds, in and outside the kernels memory', () => {
    const random = seededRandom(29);
    const { buffer: pooled, release } = countableBuffer(64 * 1024);
    try {
      for (let trial = 0; trial < 600; trial++) {
        const length = Math.floor(random() ** 2 * 4000);
        const bytes = Buffer.alloc(length);
        const newlineShare = random() * 0.3;
        for (let index = 0; index < length; index++) {
          bytes[index] =
            random() < newlineShare ? 0x0a : (alphabet[Math.floor(random() * 9) + 1] as number);
        }
        const needleLength = 1 + Math.floor(random() ** 2 * 32);
        const needle = Buffer.from(
          Array.from({ length: needleLength }, () => alphabet[Math.floor(random() * 10)] as number),
        );
        // Needles at the block's edges: the first and last bytes, a line cut by the block's end.
        if (trial % 3 === 0 && length >= needleLength) needle.set(bytes.subarray(0, needleLength));
        if (trial % 3 === 1 && length >= needleLength) needle.set(bytes.subarray(-needleLength));
        const search = SimdLiteralSearch.create(needle, Math.floor(random() * needleLength));
        if (!search) throw new Error('WebAssembly SIMD is missing');
        const expected = reference(bytes, needle);
        const label = `trial ${trial}: ${JSON.stringify([...needle])}`;
        expect(visited(search, bytes), label).toEqual(expected);
        // The same bytes inside the kernels' memory, at an odd offset: searched where they lie.
        const offset = 1 + Math.floor(random() * 60);
        const inPlace = pooled.subarray(offset, offset + length);
        inPlace.set(bytes);
        expect(visited(search, inPlace), label).toEqual(expected);
      }
    } finally {
      release();
    }
  });

  it('matches ASCII letters in either case with foldCase, and only letters', () => {
    const random = seededRandom(41);
    // Letters in both cases, and bytes whose case bit makes them look like others ('@' and
    // '`', '[' and '{', 0xc5 and 0xe5): only letters may fold.
    const folding = [0x0a, 0x45, 0x65, 0x52, 0x72, 0x40, 0x60, 0x5b, 0x7b, 0xc5, 0xe5, 0x20];
    const { buffer: pooled, release } = countableBuffer(64 * 1024);
    try {
      for (let trial = 0; trial < 400; trial++) {
        const length = Math.floor(random() ** 2 * 3000);
        const bytes = Buffer.from(
          Array.from({ length }, () => folding[Math.floor(random() * folding.length)] as number),
        );
        // Past 16 bytes, the whole compare takes a second step of 16.
        const needleLength = 1 + Math.floor(random() ** 2 * 40);
        const needle = Buffer.from(
          Array.from(
            { length: needleLength },
            () => folding[1 + Math.floor(random() * (folding.length - 1))] as number,
          ),
        );
        const search = SimdLiteralSearch.create(needle, Math.floor(random() * needleLength), true);
        if (!search) throw new Error('WebAssembly SIMD is missing');
        const expected = reference(bytes, needle, true);
        const label = `trial ${trial}: ${JSON.stringify([...needle])}`;
        expect(visited(search, bytes), label).toEqual(expected);
        const inPlace = pooled.subarray(3, 3 + length);
        inPlace.set(bytes);
        expect(visited(search, inPlace), label).toEqual(expected);
      }
    } finally {
      release();
    }
  });

  it('takes an empty block, more matching lines than one kernel call writes, and no oversized copy', () => {
    const search = SimdLiteralSearch.create(Buffer.from('ERROR'));
    if (!search) throw new Error('WebAssembly SIMD is missing');
    expect(visited(search, new Uint8Array(0))).toEqual([]);
    // 20,000 matching lines: several batches of the kernel's out area, resumed at line starts.
    const lines = Buffer.from('x ERROR\r\nINFO\n'.repeat(20_000));
    expect(visited(search, lines)).toEqual(reference(lines, Buffer.from('ERROR')));
    // Outside the kernels' memory and over their 1 MiB copy window: left to the caller.
    expect(search.countLines(Buffer.alloc(2 * 1024 * 1024, 0x45))).toBeUndefined();
  });

  it('answers for BytesLineMatcher as its byte searches do, as blocks turn dense and sparse', () => {
    const random = seededRandom(41);
    const needle = Buffer.from('ERROR');
    const matcher = new BytesLineMatcher(needle);
    const { buffer: pooled, release } = countableBuffer(256 * 1024);
    try {
      for (let round = 0; round < 40; round++) {
        // A block's density decides how the next block in the kernels' memory is searched.
        const share = round % 3 === 0 ? 0.001 : random();
        let text = '';
        while (text.length < 200_000) {
          text += random() < share ? 'ts ERROR disk\r\n' : 'ts INFO \xff ok ERRO\n';
        }
        const block = pooled.subarray(0, Buffer.from(text, 'latin1').copy(pooled));
        const expected = reference(block, needle);
        const lines: number[][] = [];
        const count = matcher.visitLines(block, (start, hit, end) => lines.push([start, hit, end]));
        expect(lines, `round ${round}`).toEqual(expected);
        expect(count).toBe(expected.length);
        expect(matcher.countMatchingLines(block)).toBe(expected.length);
        expect(Array.from(matcher.matchingLines(block))).toEqual(expected.map(([start]) => start));
      }
    } finally {
      release();
    }
  });

  it('answers for BytesLineMatcher once its anchor byte proves common, from that block on', () => {
    const random = seededRandom(43);
    // Every byte of the needle is common in the text; the pair of them at their distance is not.
    const needle = Buffer.from('abab a');
    const matcher = new BytesLineMatcher(needle);
    const { buffer: pooled, release } = countableBuffer(256 * 1024);
    try {
      for (let round = 0; round < 20; round++) {
        const text = Array.from({ length: 150_000 }, () => 'ab \n'[Math.floor(random() * 4)]).join(
          '',
        );
        // In the kernels' memory first (the block that finds the anchor common goes on with the
        // SIMD search), then outside it (byte searches for the needle).
        for (const block of [
          pooled.subarray(0, Buffer.from(text, 'latin1').copy(pooled)),
          Buffer.from(text, 'latin1'),
        ]) {
          const expected = reference(block, needle);
          expect(matcher.countMatchingLines(block), `round ${round}`).toBe(expected.length);
          expect(Array.from(matcher.matchingLines(block)), `round ${round}`).toEqual(
            expected.map(([start]) => start),
          );
        }
      }
    } finally {
      release();
    }
  });

  it('answers for CaseFoldingBytesLineMatcher in the kernels memory as outside it', () => {
    const random = seededRandom(47);
    const matcher = new CaseFoldingBytesLineMatcher('eRr@');
    const { buffer: pooled, release } = countableBuffer(64 * 1024);
    try {
      for (let round = 0; round < 30; round++) {
        const length = Math.floor(random() * 60_000);
        const text = Array.from({ length }, () => 'eErR@`\n'[Math.floor(random() * 7)]).join('');
        const outside = Buffer.from(text, 'latin1');
        const inside = pooled.subarray(0, outside.copy(pooled));
        const expected = reference(outside, Buffer.from('err@'), true).map(([start]) => start);
        expect(Array.from(matcher.matchingLines(outside)), `round ${round}`).toEqual(expected);
        expect(Array.from(matcher.matchingLines(inside)), `round ${round}`).toEqual(expected);
        expect(matcher.countMatchingLines(inside), `round ${round}`).toBe(expected.length);
      }
    } finally {
      release();
    }
  });
});
