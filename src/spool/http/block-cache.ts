/**
 * A least-recently-used cache of fixed-size blocks, bounded in bytes: what keeps repeated
 * head/tail/line lookups on a remote object from asking the server again.
 *
 * @example
 * ```ts
 * const cache = new BlockCache(8 * 1024 * 1024);
 * cache.set(0, firstBlock);
 * cache.get(0); // firstBlock, now the most recently used
 * ```
 */
export class BlockCache {
  readonly maxBytes: number;
  readonly #blocks = new Map<number, Uint8Array>();
  #bytes = 0;

  constructor(maxBytes: number) {
    this.maxBytes = maxBytes;
  }

  /** Bytes held. */
  get byteLength(): number {
    return this.#bytes;
  }

  /** Whether a block is cached, without marking it used. */
  has(index: number): boolean {
    return this.#blocks.has(index);
  }

  /**
   * Where the part of a scan at `position` ends, for blocks of `blockSize`: the run of cached
   * blocks there (they cost no request), else up to `size` bytes, stopping where cached blocks
   * begin.
   */
  scanPart(
    position: number,
    stop: number,
    size: number,
    blockSize: number,
  ): { end: number; cached: boolean } {
    let index = Math.floor(position / blockSize);
    const cached = this.has(index);
    const limit = cached ? stop : Math.min(stop, position + size);
    do index++;
    while (index * blockSize < limit && this.has(index) === cached);
    return { end: Math.min(limit, index * blockSize), cached };
  }

  get(index: number): Uint8Array | undefined {
    const block = this.#blocks.get(index);
    if (block) {
      // Map keeps insertion order: re-inserting marks the block most recently used.
      this.#blocks.delete(index);
      this.#blocks.set(index, block);
    }
    return block;
  }

  set(index: number, block: Uint8Array): void {
    this.delete(index);
    this.#blocks.set(index, block);
    this.#bytes += block.length;
    for (const [oldest, evicted] of this.#blocks) {
      if (this.#bytes <= this.maxBytes) break;
      this.#blocks.delete(oldest);
      this.#bytes -= evicted.length;
    }
  }

  delete(index: number): void {
    const block = this.#blocks.get(index);
    if (!block) return;
    this.#blocks.delete(index);
    this.#bytes -= block.length;
  }

  clear(): void {
    this.#blocks.clear();
    this.#bytes = 0;
  }
}

/**
 * Copies `length` bytes starting `offset` bytes into consecutive blocks (a view when one block
 * has them all).
 *
 * @example
 * ```ts
 * assembleBlocks([blockA, blockB], 100, 200); // the bytes from 100 into blockA, 200 of them
 * ```
 */
export function assembleBlocks(blocks: Uint8Array[], offset: number, length: number): Uint8Array {
  const first = blocks[0] as Uint8Array;
  if (blocks.length === 1) return first.subarray(offset, offset + length);
  const target = new Uint8Array(length);
  let written = 0;
  let skip = offset;
  for (const block of blocks) {
    const piece = block.subarray(skip, skip + length - written);
    target.set(piece, written);
    written += piece.length;
    skip = Math.max(0, skip - block.length);
  }
  return target;
}
