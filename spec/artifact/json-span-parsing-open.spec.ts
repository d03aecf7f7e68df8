import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  MemorySpoolReader,
  type ReadOptions,
  SpooledJsonArtifact,
  SpoolforgeError,
  type SpoolReader,
} from 'spoolforge';
import { describe, expect, it } from 'vitest';

/** A memory reader that counts the bytes read from it: what a walk of the document costs. */
class CountingReader implements SpoolReader {
  bytesRead = 0;
  readonly #inner: MemorySpoolReader;
  constructor(bytes: Uint8Array) {
    this.#inner = new MemorySpoolReader(bytes);
  }
  byteLength() {
    return this.#inner.byteLength();
  }
  async read(position: number, length: number, options?: ReadOptions) {
    const bytes = await this.#inner.read(position, length, options);
    this.bytesRead += bytes.length;
    return bytes;
  }
}

// Spans are at most maxParseBytes (4 KiB) here, so a few hundred rows make many of them.
const maxParseBytes = 4096;
const artifactOf = (text: string) => {
  const reader = new CountingReader(new TextEncoder().encode(text));
  return { reader, artifact: new SpooledJsonArtifact(reader, { format: 'json', maxParseBytes }) };
};

const rows = Array.from({ length: 1_200 }, (_, index) => ({
  id: index,
  status: index % 7 === 0 ? null : 200 + (index % 5),
  // Separators and brackets inside strings, escapes, and UTF-8 bytes.
  note: index % 9 === 0 ? `},{"x":${index}},\n{ "y": "\\"] é` : `row ${index}`,
  items: index % 4 === 0 ? [{ a: index }, { a: [index, { b: 'c' }] }] : [],
  ...(index % 50 === 3 ? { escaped: '\u00e9\u0000' } : {}),
}));
const lines = rows.map((row) => JSON.stringify(row));
const layouts: Record<string, string> = {
  'one record a line': `[\n${lines.join(',\n')}\n]\n`,
  'one line': JSON.stringify(rows),
  pretty: JSON.stringify(rows, null, 2),
  'CRLF and a byte order mark': `\uFEFF[\r\n${lines.join(',\r\n')}\r\n]`,
  'nested arrays of objects, one line': JSON.stringify(rows.map((row) => [row, [row.items]])),
  scalars: JSON.stringify(rows.flatMap((row) => [row.id, row.note, row.status, true])),
};

/** What shape() gives after an open of its own (length() first), the two-pass way. */
async function shapedAfterOpen(text: string) {
  const { artifact } = artifactOf(text);
  await artifact.length();
  const { shape, scanned } = await artifact.shape();
  return { fields: shape.fields(), scanned };
}

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'no error',
    (error: unknown) =>
      SpoolforgeError.isInstance(error) ? `${error.code}: ${error.message}` : String(error),
  );

describe('shape() of a large JSON array not opened yet', () => {
  it.each(Object.entries(layouts))(
    'reads %s once, with the shape and index of an open first',
    async (_, text) => {
      const { reader, artifact } = artifactOf(text);
      const { shape, scanned, document } = await artifact.shape();
      const expected = await shapedAfterOpen(text);
      expect(shape.fields()).toEqual(expected.fields);
      expect(scanned).toBe(expected.scanned);
      const bytes = Buffer.byteLength(text);
      expect(reader.bytesRead).toBeLessThan(bytes * 1.2);
      // The document it opened reaches every entry.
      const values = JSON.parse(text.replace(/^\uFEFF/, '')) as unknown[];
      expect(document.rootType).toBe('array');
      expect(await artifact.length()).toBe(values.length);
      for (const index of [0, 1, 777, values.length - 1]) {
        const [match] = await artifact.query(`$[${index}]`);
        expect(match?.value).toEqual(values[index]);
      }
    },
  );

  it('takes an entry too large for a span or to parse as an open does, reading the rest again', async () => {
    const big = { id: 'big', text: 'x'.repeat(3 * maxParseBytes) };
    const text = `[\n${[...lines.slice(0, 600), JSON.stringify(big), ...lines.slice(600)].join(',\n')}\n]`;
    const { artifact } = artifactOf(text);
    const { shape, scanned } = await artifact.shape();
    const expected = await shapedAfterOpen(text);
    expect(shape.fields()).toEqual(expected.fields);
    expect(scanned).toBe(expected.scanned);
    expect(shape.fields().find((field) => field.path === '$[*]')?.types).toEqual({
      object: rows.length + 1,
    });
    expect(await artifact.length()).toBe(rows.length + 1);
    expect((await artifact.query('$[601].id'))[0]?.value).toBe(600);
  });

  const oneALine = layouts['one record a line'] as string;
  const broken: Record<string, string> = {
    'a bad value in an entry': oneALine.replace('"id":903,"status":null', '"id":903,"status":nul'),
    'a missing comma between entries': oneALine.replace(',\n{"id":500,', '\n{"id":500,'),
    'a comma before the end': oneALine.replace(/\n\]\n$/, ',\n]'),
    'no end': oneALine.replace(/\n\]\n$/, ''),
    'data after the end': `${oneALine}x`,
    'an empty array with a comma': `[${' '.repeat(5000)},]`,
  };
  it.each(Object.entries(broken))('fails on %s as an open first does', async (_, text) => {
    const { artifact } = artifactOf(text);
    const failure = await failureOf(artifact.shape());
    const { artifact: opened } = artifactOf(text);
    expect(failure).toMatch(/^E_INVALID_JSON: Invalid JSON at line \d+, column \d+/);
    expect(failure).toBe(await failureOf(opened.length().then(() => opened.shape())));
  });

  it('shapes an empty array', async () => {
    const { artifact } = artifactOf(`[${' '.repeat(5000)}]`);
    const { scanned, document } = await artifact.shape();
    expect(scanned).toBe(0);
    expect(document.rootType).toBe('array');
    expect(await artifact.length()).toBe(0);
  });

  it('stops at its deadline with the document opened whole', async () => {
    const { artifact } = artifactOf(oneALine);
    const result = await artifact.shape({ timeout: 0 });
    expect(result.stopped).toBe('deadline');
    expect(result.scanned).toBeLessThan(rows.length);
    expect(await artifact.length()).toBe(rows.length);
    expect((await artifact.query(`$[${rows.length - 1}].id`))[0]?.value).toBe(rows.length - 1);
  });

  it('answers a query asked while it runs', async () => {
    const { artifact } = artifactOf(oneALine);
    const [shaped, length, last] = await Promise.all([
      artifact.shape(),
      artifact.length(),
      artifact.query('$[-1:].id'),
    ]);
    expect(shaped.scanned).toBe(rows.length);
    expect(length).toBe(rows.length);
    expect(last[0]?.value).toBe(rows.length - 1);
  });

  it("fails no other caller's query when its own caller aborts it", async () => {
    // 1 MiB reads: the walk is under way by the second, and aborted at the third.
    const big = JSON.stringify(
      Array.from({ length: 60_000 }, (_, id) => ({ id, note: `row ${id} of the big array` })),
    );
    const controller = new AbortController();
    let reads = 0;
    let waiting: Promise<number> | undefined;
    class AbortingReader extends CountingReader {
      override async read(position: number, length: number, options?: ReadOptions) {
        reads++;
        if (reads === 2) waiting = artifact.length();
        if (reads === 3) controller.abort();
        return super.read(position, length, options);
      }
    }
    const artifact = new SpooledJsonArtifact(new AbortingReader(new TextEncoder().encode(big)), {
      format: 'json',
      maxParseBytes,
    });
    expect(await failureOf(artifact.shape({ signal: controller.signal }))).toMatch(/^E_ABORTED/);
    expect(reads).toBeGreaterThanOrEqual(3);
    expect(await waiting).toBe(60_000);
  });

  it('stops on an abort, and the next query opens the document', async () => {
    const { artifact } = artifactOf(oneALine);
    const controller = new AbortController();
    controller.abort();
    expect(await failureOf(artifact.shape({ signal: controller.signal }))).toMatch(/^E_ABORTED/);
    expect((await artifact.shape()).scanned).toBe(rows.length);
  });
});

describe('shape() of a large JSON array file not opened yet', () => {
  it('reads the file as a spool does, with the shape and errors of an open first', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'spoolforge-span-open-'));
    try {
      const text = layouts['one record a line'] as string;
      const path = join(directory, 'rows.json');
      await writeFile(path, text);
      const good = SpooledJsonArtifact.fromFile(path, { format: 'json', maxParseBytes });
      const { shape, scanned } = await good.shape();
      await good.close();
      expect({ fields: shape.fields(), scanned }).toEqual(await shapedAfterOpen(text));
      const badPath = join(directory, 'bad.json');
      const bad = text.replace('"id":903,"status":null', '"id":903,"status":nul');
      await writeFile(badPath, bad);
      const broken = SpooledJsonArtifact.fromFile(badPath, { format: 'json', maxParseBytes });
      const failure = await failureOf(broken.shape());
      await broken.close();
      const { artifact: opened } = artifactOf(bad);
      expect(failure).toBe(await failureOf(opened.length().then(() => opened.shape())));
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
