import { literalRarity } from './needle-anchor.js';

/** Bytes at the start of a block the literals are counted in. */
const sampleBytes = 256 * 1024;

/**
 * Which of `literals` (each required on a matching line) to search for first: the one found
 * least often in a sample of `block`, ties going to the rarer bytes (`literalRarity`). A rank
 * of bytes alone guesses wrong where the data disagrees with it: in `ERROR.*checksum`, `ERROR`
 * has the rarer bytes but `checksum` the rarer lines.
 *
 * @example
 * ```ts
 * rarestLiteral([Buffer.from('ERROR'), Buffer.from('checksum')], Buffer.from('1 ERROR x\n2 ERROR y\n')); // 1
 * ```
 */
export function rarestLiteral(literals: readonly Uint8Array[], block: Uint8Array): number {
  const sample = Buffer.from(block.buffer, block.byteOffset, Math.min(block.length, sampleBytes));
  let best = 0;
  let bestCount = Number.POSITIVE_INFINITY;
  for (let index = 0; index < literals.length; index++) {
    const literal = literals[index] as Uint8Array;
    // Counting stops where it can no longer win.
    let count = 0;
    for (let at = sample.indexOf(literal); at !== -1 && count <= bestCount; count++) {
      at = sample.indexOf(literal, at + Math.max(1, literal.length));
    }
    if (
      count < bestCount ||
      (count === bestCount && literalRarity(literal) > literalRarity(literals[best] as Uint8Array))
    ) {
      best = index;
      bestCount = count;
    }
  }
  return best;
}
