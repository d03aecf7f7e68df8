import { poolBufferBytes, selectOut, selectStarts, simdKernels } from '../spool/simd-kernels.js';

/**
 * The text grep prints of a block of whole lines, copied by the `select` kernel of
 * src/spool/simd-kernels.wat: its matching lines (`starts`, their ascending offsets) or, with
 * `invert`, all the others, each with its `\n` (one is added to a last line without it). Only
 * the starts are touched in JavaScript, where going line by line costs a line-end search and a
 * call into the sink per line or run.
 *
 * A view of the kernels' memory, valid until the next call; `undefined` where the block does
 * not lie in that memory (not a scan's read, or no WebAssembly SIMD): go line by line then.
 *
 * @example
 * ```ts
 * const text = selectedText(block, await matcher.matchingLines(block), true); // grep -v
 * if (text) process.stdout.write(text);
 * ```
 */
export function selectedText(
  block: Uint8Array,
  starts: ArrayLike<number>,
  invert: boolean,
): Uint8Array | undefined {
  const kernels = simdKernels();
  if (!kernels?.grown || block.buffer !== kernels.memory || block.length > poolBufferBytes) {
    return undefined;
  }
  const base = block.byteOffset;
  const end = base + block.length;
  const { words } = kernels;
  const first = selectStarts.offset >> 2;
  let from = base;
  let dst = selectOut.offset;
  let index = 0;
  // The starts go over in batches: a block of short lines may hold more than the area takes.
  do {
    const count = Math.min(starts.length - index, selectStarts.entries);
    for (let offset = 0; offset < count; offset++) {
      words[first + offset] = base + (starts[index + offset] as number);
    }
    index += count;
    const last = index === starts.length ? 1 : 0;
    dst = kernels.select(selectStarts.offset, count, from, end, invert ? 1 : 0, last, dst);
    from = kernels.resume.value;
  } while (index < starts.length);
  return kernels.bytes.subarray(selectOut.offset, dst);
}
