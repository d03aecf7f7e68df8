/** A deterministic generator of numbers in [0, 1), so a failing random case fails again. */
export function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}

/** `length` characters drawn from `alphabet` with `next`. */
export function randomText(next: () => number, alphabet: string, length: number): string {
  let text = '';
  for (let index = 0; index < length; index++) {
    text += alphabet[Math.floor(next() * alphabet.length)];
  }
  return text;
}
