import { newline } from '../../spool/newlines.js';
import type { LineMatcher } from './line-matcher.js';

/** Past this share of the block, candidates are not worth gathering: the regex sees it all. */
const gatherUpTo = 0.5;

/**
 * Runs a regex only on the lines that contain a literal every match must contain: `prefilter`
 * (a byte search) finds the candidate lines, which are gathered into one block for `regex`;
 * its answers are mapped back to the original offsets.
 *
 * @example
 * ```ts
 * const matcher = new PrefilteredLineMatcher(new BytesLineMatcher(Buffer.from('timeout')), regexMatcher);
 * ```
 */
export class PrefilteredLineMatcher implements LineMatcher {
  readonly #prefilter: LineMatcher;
  readonly #regex: LineMatcher;

  constructor(prefilter: LineMatcher, regex: LineMatcher) {
    this.#prefilter = prefilter;
    this.#regex = regex;
  }

  async matchingLines(block: Uint8Array): Promise<ArrayLike<number>> {
    const candidates = await this.#prefilter.matchingLines(block);
    if (candidates.length === 0) return [];
    const ends = Array.from({ length: candidates.length }, (_, index) => {
      const end = block.indexOf(newline, candidates[index] as number);
      return end === -1 ? block.length : end + 1;
    });
    let size = 0;
    for (let index = 0; index < candidates.length; index++)
      size += (ends[index] as number) - (candidates[index] as number);
    if (size > block.length * gatherUpTo) return this.#regex.matchingLines(block);
    const gathered = new Uint8Array(size);
    const gatheredStarts: number[] = [];
    let offset = 0;
    for (let index = 0; index < candidates.length; index++) {
      const line = block.subarray(candidates[index] as number, ends[index] as number);
      gathered.set(line, offset);
      gatheredStarts.push(offset);
      offset += line.length;
    }
    const matched = await this.#regex.matchingLines(gathered);
    const original = new Map(
      gatheredStarts.map((start, index) => [start, candidates[index] as number]),
    );
    return Array.from(matched, (start) => original.get(start) as number);
  }

  async dispose(): Promise<void> {
    await Promise.all([this.#prefilter.dispose(), this.#regex.dispose()]);
  }
}
