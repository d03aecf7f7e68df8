import type { SpooledJsonArtifact } from 'spoolforge';
import { describe, expect, it } from 'vitest';
import { jsonArtifact } from '../helpers/json-artifacts.js';

// A document over maxParseBytes is scanned in 64 KiB reads into two recycled buffers: an entry
// the scan parses spans several reads, and one past maxParseBytes makes an array root scan too.
const maxParseBytes = 300_000;
const kib64 = 64 * 1024;

/** `value` as JSON, spooled to a temp file. */
const valueArtifact = (value: unknown) => jsonArtifact(JSON.stringify(value), { maxParseBytes });

/** Distinct numbers, then a padding string, so that the array's JSON is exactly `bytes` long. */
function arrayOfBytes(bytes: number): unknown[] {
  const values: unknown[] = [];
  for (let length = 2; length < bytes - 16; length += String(values.length).length + 1)
    values.push(values.length);
  values.push('');
  values[values.length - 1] = 'p'.repeat(bytes - JSON.stringify(values).length);
  expect(JSON.stringify(values)).toHaveLength(bytes);
  return values;
}

/** Each entry's value, or the type of one too large to parse. */
async function entriesOf(artifact: SpooledJsonArtifact) {
  const seen: unknown[] = [];
  for await (const entry of (await artifact.document()).entries({ large: true }))
    seen.push(entry.large ? `${entry.large.type} (large)` : entry.value);
  return seen;
}

const blob = 'b'.repeat(400_000);
// Around one read, around three (a piece of the first buffer would be overwritten), and around
// maxParseBytes (the largest entry still parsed, and the smallest one not).
const entrySizes = [
  kib64 - 1,
  kib64,
  kib64 + 1,
  2 * kib64 + 1,
  maxParseBytes - 1,
  maxParseBytes,
  maxParseBytes + 1,
];

describe('an entry parsed from several reads of a document over maxParseBytes', () => {
  it('parses {meta, items, blob} whatever the size of items, with blob past maxParseBytes', async () => {
    for (const size of entrySizes) {
      const items = arrayOfBytes(size);
      const artifact = await valueArtifact({ meta: { total: items.length }, items, blob });
      expect(await artifact.query('$.meta.total'), `items of ${size} bytes`).toEqual([
        { path: "$['meta']['total']", value: items.length },
      ]);
      const last = items.length - 2;
      expect(await artifact.query(`$.items[${last}]`)).toEqual([
        { path: `$['items'][${last}]`, value: last },
      ]);
      const parsed = size <= maxParseBytes ? items : 'array (large)';
      expect(await entriesOf(artifact)).toEqual([
        { total: items.length },
        parsed,
        'string (large)',
      ]);
    }
  });

  it('parses the same entries without the blob, and with the blob first', async () => {
    const items = arrayOfBytes(maxParseBytes - 1);
    const other = arrayOfBytes(2 * kib64 + 1);
    const withoutBlob = await valueArtifact({ items, other });
    expect(await entriesOf(withoutBlob)).toEqual([items, other]);
    const blobFirst = await valueArtifact({ blob, items, other });
    expect(await entriesOf(blobFirst)).toEqual(['string (large)', items, other]);
  });

  it('parses an array root with an entry past maxParseBytes after a smaller one', async () => {
    for (const size of [kib64 + 1, 2 * kib64 + 1, maxParseBytes]) {
      const items = arrayOfBytes(size);
      const artifact = await valueArtifact([{ first: true }, items, blob, 4]);
      expect(await entriesOf(artifact), `items of ${size} bytes`).toEqual([
        { first: true },
        items,
        'string (large)',
        4,
      ]);
      const last = items.length - 2;
      expect(await artifact.query(`$[1][${last}]`)).toEqual([
        { path: `$[1][${last}]`, value: last },
      ]);
    }
  });
});
