import { Readable } from 'node:stream';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { SpooledArtifact, SpoolforgeError, spool } from 'spoolforge';
import { describe, expect, it } from 'vitest';
import { chunked, multibyteText } from '../helpers/chunked.js';
import { edgeCaseInputs } from '../helpers/edge-case-inputs.js';
import { referenceTextLines } from '../helpers/reference-lines.js';
import { tempFile } from '../helpers/temp-files.js';

type Open = (bytes: Uint8Array) => Promise<SpooledArtifact>;

/** The same bytes reach an artifact by every route a user has. */
const routes: Record<string, Open> = {
  'file read in place': async (bytes) => SpooledArtifact.fromFile(await tempFile(bytes)),
  'spooled in memory': (bytes) => spool(bytes),
  'spooled to a temp file': (bytes) => spool(bytes, { memoryThreshold: 1024 }),
  'streamed in odd chunks': (bytes) =>
    spool(chunked(bytes, [1, 7, 4096, 65_537, 3]), {
      memoryThreshold: 100_000,
      lineIndexStride: 100,
    }),
};

async function expectMatchesReference(artifact: SpooledArtifact, bytes: Uint8Array) {
  const expected = referenceTextLines(bytes);
  const numbered = (from: number, texts: string[]) =>
    texts.map((text, index) => ({ lineNumber: from + index, text }));
  expect(await artifact.byteLength()).toBe(bytes.length);
  expect(await artifact.lineCount()).toBe(expected.length);
  for (const n of [0, 1, 3, expected.length, expected.length + 5]) {
    expect(await artifact.head(n)).toEqual(numbered(0, expected.slice(0, n)));
    const from = Math.max(0, expected.length - n);
    expect(await artifact.tail(n)).toEqual(numbered(from, expected.slice(from)));
  }
  const middle = Math.floor(expected.length / 2);
  for (const [start, end] of [
    [0, expected.length],
    [middle, middle + 2],
    [expected.length - 1, expected.length + 10],
    [expected.length, expected.length + 1],
  ] as const) {
    if (start < 0) continue;
    expect(await artifact.cat(start, end)).toEqual(numbered(start, expected.slice(start, end)));
  }
  const streamed: string[] = [];
  for await (const line of artifact.lines()) streamed.push(line.text);
  expect(streamed).toEqual(expected);
  expect(await artifact.asString()).toBe(new TextDecoder().decode(bytes));
}

describe.each(Object.entries(routes))('SpooledArtifact, %s', (_route, open) => {
  it.each(Object.entries(edgeCaseInputs()))('answers line queries on %s', async (_name, bytes) => {
    await using artifact = await open(bytes);
    await expectMatchesReference(artifact, bytes);
  });

  it('decodes characters split across every internal chunk boundary', async () => {
    const bytes = multibyteText(4 * 1024 * 1024 + 300_000);
    await using artifact = await open(bytes);
    await expectMatchesReference(artifact, bytes);
  });
});

describe('SpooledArtifact sizes at chunk and stride boundaries', () => {
  const sizes = [64 * 1024, 128 * 1024, 4 * 1024 * 1024].flatMap((size) => [
    size - 1,
    size,
    size + 1,
  ]);
  it.each(sizes)('a %d-byte file of 99-byte lines', async (size) => {
    const line = `${'z'.repeat(98)}\n`;
    const text = line.repeat(Math.ceil(size / line.length)).slice(0, size);
    const bytes = new Uint8Array(Buffer.from(text));
    await using artifact = SpooledArtifact.fromFile(await tempFile(bytes));
    await expectMatchesReference(artifact, bytes);
  });
});

describe('SpooledArtifact sources', () => {
  it('spools a Node Readable, a web ReadableStream and string chunks alike', async () => {
    const text = 'α\nβ\nγ';
    const web = new Blob([text]).stream();
    for (const source of [
      Readable.from([Buffer.from(text)]),
      web,
      chunked(Buffer.from(text), [1]),
    ]) {
      await using artifact = await spool(source);
      expect((await artifact.cat()).map((line) => line.text)).toEqual(['α', 'β', 'γ']);
    }
    async function* strings() {
      yield 'ab\uD83C';
      yield '\uDF89cd\n';
    }
    await using fromStrings = await spool(strings());
    expect(await fromStrings.asString()).toBe('ab🎉cd\n');
  });

  it('refuses asString and cat past maxStringBytes with E_ARTIFACT_TOO_LARGE', async () => {
    await using artifact = await spool('0123456789\n'.repeat(100), { maxStringBytes: 500 });
    await expect(artifact.asString()).rejects.toMatchObject({ code: 'E_ARTIFACT_TOO_LARGE' });
    await expect(artifact.cat()).rejects.toSatisfy(SpoolforgeError.isInstance);
    expect(await artifact.head(2)).toHaveLength(2);
  });

  it('rejects a bad range with a clear error', async () => {
    await using artifact = await spool('a\nb\n');
    await expect(artifact.cat(-1, 2)).rejects.toMatchObject({ code: 'E_INVALID_ARGUMENT' });
    await expect(artifact.cat(2, 1)).rejects.toMatchObject({ code: 'E_INVALID_ARGUMENT' });
  });

  it('sees a file that grows between queries', async () => {
    const { appendFile } = await import('node:fs/promises');
    const path = await tempFile('one\n');
    await using artifact = SpooledArtifact.fromFile(path);
    expect(await artifact.lineCount()).toBe(1);
    await appendFile(path, 'two\nthree');
    expect(await artifact.lineCount()).toBe(3);
    expect(await artifact.tail(1)).toEqual([{ lineNumber: 2, text: 'three' }]);
  });

  it('counts tokens exactly when small, and approximates encodings it has no tokenizer for', async () => {
    const text = 'The build failed: error TS2322 in src/spool.ts\n'.repeat(100);
    await using artifact = await spool(text);
    expect(await artifact.estimateTokens()).toBe(countTokens(text));
    expect(await artifact.tokenEstimate('o200k_base')).toMatchObject({ method: 'exact' });
    expect(await artifact.tokenEstimate('p50k_base')).toEqual({
      tokens: Math.ceil(text.length / 4),
      encoding: 'p50k_base',
      method: 'approximate',
    });
  });
});
