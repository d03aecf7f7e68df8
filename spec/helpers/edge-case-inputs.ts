/** Inputs every line query must get right, as bytes. */
export function edgeCaseInputs(): Record<string, Uint8Array> {
  const text = (value: string) => new Uint8Array(Buffer.from(value, 'utf8'));
  const longLine = 'x'.repeat(3 * 1024 * 1024 + 17);
  return {
    empty: text(''),
    'newline only': text('\n'),
    'two newlines': text('\n\n'),
    'no final newline': text('first\nsecond\nthird'),
    crlf: text('one\r\ntwo\r\n\r\nthree\r\n'),
    'empty lines': text('a\n\n\nb\n\n'),
    'single char': text('a'),
    'long line (3 MiB+)': text(`before\n${longLine}\nafter\n`),
    'one 5 MiB line': text('y'.repeat(5 * 1024 * 1024)),
    'invalid utf-8': new Uint8Array([0x61, 0xff, 0x0a, 0xc3, 0x28, 0x0a, 0xe2, 0x82, 0x0a, 0x62]),
    unicode: text('héllo wörld\n日本語のテキスト\n🎉 party\n'),
  };
}
