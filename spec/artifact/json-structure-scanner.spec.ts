import { describe, expect, it } from 'vitest';
import { JsonScanError } from '../../src/artifact/json/json-scan-types.js';
import { JsonStructureScanner } from '../../src/artifact/json/json-structure-scanner.js';

/** A small deterministic generator, so a failure reproduces. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

function value(next: () => number, depth: number): unknown {
  const roll = next();
  // Long ones too: past the 64 bytes a string is looked through before the general skip.
  const long = ['ß'.repeat(40), `${'y'.repeat(70)}"]}`];
  const scalars = [1, -2.5e3, 'a"b\\', 'x\\\\', true, null, 'é☃ \u0001', '}]{[,:', ...long];
  if (depth > 3 || roll < 0.3) return scalars[Math.floor(next() * scalars.length)];
  const size = Math.floor(next() * 4);
  if (roll < 0.65) return Array.from({ length: size }, () => value(next, depth + 1));
  return Object.fromEntries(
    Array.from({ length: size }, (_, index) => [`k"${index}\\`, value(next, depth + 1)]),
  );
}

function scan(text: string, chunkSize: number) {
  const bytes = Buffer.from(text);
  const entries: { key?: string; value: unknown }[] = [];
  const scanner = new JsonStructureScanner({
    capture: () => true,
    onEntry: (entry) => {
      const parsed = JSON.parse(Buffer.from(entry.bytes as Uint8Array).toString('utf8'));
      entries.push(entry.key === undefined ? { value: parsed } : { key: entry.key, value: parsed });
      return true;
    },
  });
  // One Buffer read into again for every chunk, as readerChunks' recycled reads are.
  const recycled = Buffer.alloc(chunkSize);
  for (let offset = 0; offset < bytes.length; offset += chunkSize) {
    const length = bytes.copy(recycled, 0, offset, offset + chunkSize);
    scanner.push(recycled.subarray(0, length), offset);
  }
  scanner.end(bytes.length);
  return entries;
}

describe('JsonStructureScanner', () => {
  it('finds every top-level entry, whatever the chunk boundaries cut (escapes, keys, UTF-8)', () => {
    const next = random(7);
    for (let trial = 0; trial < 1_500; trial++) {
      const document = value(next, 0);
      if (typeof document !== 'object' || document === null) continue;
      const text = JSON.stringify(document, null, trial % 2 ? 2 : undefined);
      const expected = Array.isArray(document)
        ? document.map((entry) => ({ value: entry }))
        : Object.entries(document).map(([key, entry]) => ({ key, value: entry }));
      // Chunks cut strings anywhere, or hold whole entries (most strings inside one chunk).
      for (const chunkSize of [1 + (trial % 7), 61 + (trial % 5), 4096])
        expect(scan(text, chunkSize)).toEqual(expected);
    }
  });

  it.each([
    ['[1,]', 3, 'Expected an array element'],
    ['[1 2]', 3, "Expected ',' or ']' after an array element"],
    ['{"a" 1}', 5, "Expected ':' after a property name"],
    ['{"a":1,}', 7, 'Expected a property name in double quotes'],
    ['[1', 2, 'unexpected end of JSON input'],
    ['', 0, 'The document is empty'],
    ['[1] x', 4, 'Unexpected data after the JSON value'],
  ])('reports %j at byte %i', (text, offset, message) => {
    const error = (() => {
      try {
        scan(text, 2);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(JsonScanError);
    expect((error as JsonScanError).offset).toBe(offset);
    expect((error as Error).message).toContain(message);
  });
});
