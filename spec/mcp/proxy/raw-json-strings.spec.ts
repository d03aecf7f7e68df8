// Finding a text among the string values of raw JSON read in 1 MiB chunks: escapes and
// surrogate pairs cut by a chunk's end, keys left alone, a string differing in one byte, and
// the JSON rebuilt with the handle in place of each match.
import { describe, expect, it } from 'vitest';
import { findRawStrings, replacedRawStrings } from '../../../src/mcp/proxy/raw-json-strings.js';
import { fingerprintOf } from '../../../src/mcp/proxy/text-fingerprint.js';
import { MemorySpoolReader } from '../../../src/spool/memory-spool-reader.js';

const mebibyte = 1024 * 1024;

/** 2 MiB of text dense with escapes, and a character of each UTF-8 length. */
const text = `${'line "one"\t\\ é 😀 \u0001\r\n'.repeat(90_000)}end`;

async function rebuilt(raw: string, ranges: Parameters<typeof replacedRawStrings>[1]) {
  const pieces: Buffer[] = [];
  for await (const piece of replacedRawStrings(new MemorySpoolReader(raw), ranges, 'HANDLE')) {
    pieces.push(Buffer.from(piece));
  }
  return JSON.parse(Buffer.concat(pieces).toString('utf8')) as unknown;
}

describe('findRawStrings', () => {
  it('finds the text at any depth across chunk ends, whatever escape a chunk cuts', async () => {
    const prints = [await fingerprintOf(text)];
    const encoded = JSON.stringify(text);
    // Shift the string so that each of the first bytes of a mebibyte lands on a chunk's end.
    for (const shift of [0, 1, 2, 3, 5, 7, 11]) {
      const head = `{"pad":"${'p'.repeat(shift)}","deep":{"list":[1,{"content":`;
      const raw = `${head}${encoded}}]},"ok":true}`;
      const ranges = await findRawStrings(new MemorySpoolReader(raw), prints);
      const start = Buffer.byteLength(head);
      expect(ranges).toEqual([{ start, end: start + Buffer.byteLength(encoded) }]);
      expect(await rebuilt(raw, ranges ?? [])).toEqual({
        pad: 'p'.repeat(shift),
        deep: { list: [1, { content: 'HANDLE' }] },
        ok: true,
      });
    }
    expect(Buffer.byteLength(encoded)).toBeGreaterThan(2 * mebibyte);
  });

  it('leaves keys, a string differing in its last byte and a longer one alone', async () => {
    const prints = [await fingerprintOf(text)];
    const other = `${text.slice(0, -1)}E`;
    const raw = JSON.stringify({ [text]: 1, a: other, b: `${text}!`, c: text });
    const ranges = await findRawStrings(new MemorySpoolReader(raw), prints);
    expect(ranges).toHaveLength(1);
    expect(await rebuilt(raw, ranges ?? [])).toEqual({
      [text]: 1,
      a: other,
      b: `${text}!`,
      c: 'HANDLE',
    });
  });

  it('matches lone surrogates as Buffer.from writes them (U+FFFD)', async () => {
    const lone = `a\ud800b\udc00c${'x'.repeat(100)}`;
    const raw = JSON.stringify({ content: lone });
    expect(raw).toContain('\\ud800');
    const ranges = await findRawStrings(new MemorySpoolReader(raw), [await fingerprintOf(lone)]);
    expect(ranges).toHaveLength(1);
  });

  it('gives up on an invalid escape', async () => {
    const raw = `{"content":"bad \\q escape"}`;
    const prints = [await fingerprintOf('bad q escape')];
    expect(await findRawStrings(new MemorySpoolReader(raw), prints)).toBeUndefined();
  });
});
