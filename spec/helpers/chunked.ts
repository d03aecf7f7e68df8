/** Yields `bytes` in pieces of the given sizes (cycled), splitting characters and lines anywhere. */
export async function* chunked(bytes: Uint8Array, sizes: number[]): AsyncGenerator<Uint8Array> {
  let position = 0;
  for (let turn = 0; position < bytes.length; turn++) {
    const size = sizes[turn % sizes.length] ?? 1;
    yield bytes.slice(position, position + size);
    position += size;
  }
}

/** Text whose every character is 3 or 4 UTF-8 bytes, so most chunk boundaries split one. */
export function multibyteText(byteLength: number): Uint8Array {
  const pieces: string[] = [];
  let size = 0;
  for (let line = 0; size < byteLength; line++) {
    const text = `${'日本'.repeat(line % 37)}🎉${line}語${'é'.repeat(line % 5)}\n`;
    pieces.push(text);
    size += Buffer.byteLength(text);
  }
  return new Uint8Array(Buffer.from(pieces.join(''), 'utf8'));
}
