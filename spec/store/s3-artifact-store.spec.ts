import { createHash } from 'node:crypto';
import { ConversationLog, SpooledArtifact } from 'spoolforge';
import { openS3ArtifactStore } from 'spoolforge/s3';
import { describe, expect, it } from 'vitest';
import { edgeCaseInputs } from '../helpers/edge-case-inputs.js';
import { freshPrefix, listKeys, prefixOf, putObject, useS3Server } from './s3-store-helpers.js';
import { errorCode } from './store-helpers.js';

const s3 = useS3Server();

async function openStore(options: Parameters<typeof openS3ArtifactStore>[1] = {}) {
  const server = s3();
  return openS3ArtifactStore(
    { bucket: server.bucket, prefix: freshPrefix(), clientConfig: server.clientConfig },
    options,
  );
}

/** `count` numbered lines, `size` bytes each, in 1 MiB chunks: never one string. */
async function* numberedLines(count: number, size = 100): AsyncGenerator<Uint8Array> {
  const chunkLines = Math.floor((1024 * 1024) / size);
  for (let start = 0; start < count; start += chunkLines) {
    const lines: string[] = [];
    for (let line = start; line < Math.min(count, start + chunkLines); line++) {
      lines.push(`${`line ${line} `.padEnd(size - 1, '.')}\n`);
    }
    yield Buffer.from(lines.join(''));
  }
}

describe('an ArtifactStore on S3 (s3rver)', () => {
  it('puts, finds by id and name, lists, reopens and deletes', async () => {
    const store = await openStore();
    const text = 'alpha\nbeta\ngamma';
    const record = await store.put(text, { name: 'greek', metadata: { job: 4812 } });
    expect(record).toMatchObject({
      name: 'greek',
      kind: 'text',
      byteLength: 16,
      lineCount: 3,
      metadata: { job: 4812 },
      sha256: createHash('sha256').update(text).digest('hex'),
    });
    expect(await store.info(record.id)).toEqual(record);
    expect(await store.info('greek')).toEqual(record);
    expect(await store.list()).toEqual([record]);
    await using artifact = await store.get('greek');
    expect(artifact).toBeInstanceOf(SpooledArtifact);
    expect((await artifact.tail(1)).map((line) => line.text)).toEqual(['gamma']);
    expect(artifact.reader.describe?.()).toEqual({
      kind: 's3',
      locator: `s3://${s3().bucket}/${prefixOf(store)}objects/${record.id}.data`,
    });
    expect(await errorCode(Promise.resolve().then(() => store.directory))).toBe(
      'E_STORE_NOT_LOCAL',
    );
    expect(await errorCode(Promise.resolve().then(() => store.dataFile(record.id)))).toBe(
      'E_STORE_NOT_LOCAL',
    );
    expect(await errorCode(ConversationLog.open({ store, conversationId: 'c-1' }))).toBe(
      'E_STORE_NOT_LOCAL',
    );
    expect(await store.delete('greek')).toBe(true);
    expect(await store.info(record.id)).toBeUndefined();
    expect(await store.list()).toEqual([]);
    expect(await errorCode(store.get(record.id))).toBe('E_ARTIFACT_NOT_FOUND');
    expect(await store.delete(record.id)).toBe(false);
  });

  it('builds a client without the default checksums S3-compatible servers refuse', async () => {
    const store = await openStore();
    const prefix = prefixOf(store);
    const sent = () => s3().requests.filter((request) => request.url.includes(prefix));
    await store.put('checked\n', { name: 'plain' });
    expect(sent().length).toBeGreaterThan(0);
    expect(sent().flatMap((request) => request.checksumHeaders)).toEqual([]);
    // The SDK's own default would have sent them:
    await putObject(s3(), `${prefix}raw.txt`, 'raw\n');
    expect(sent().at(-1)?.checksumHeaders).not.toEqual([]);
  });

  it('checks the bucket and its options when opened', async () => {
    const server = s3();
    const { clientConfig } = server;
    expect(await errorCode(openS3ArtifactStore({ bucket: 'no-such-bucket', clientConfig }))).toBe(
      'E_REMOTE_NOT_FOUND',
    );
    const small = openS3ArtifactStore({ bucket: server.bucket, clientConfig, partSize: 1024 });
    expect(await errorCode(small)).toBe('E_INVALID_ARGUMENT');
    // SigV4 signs for a week at most: a longer validity would fail every get, not the opening.
    const long = openS3ArtifactStore({
      bucket: server.bucket,
      clientConfig,
      presignExpiresInSeconds: 8 * 24 * 60 * 60,
    });
    expect(await errorCode(long)).toBe('E_INVALID_ARGUMENT');
  });

  it('presigns data URLs for 1 s to a week, and refuses any other validity', async () => {
    const store = await openStore();
    const record = await store.put('signed\n');
    const url = new URL((await store.dataUrl(record.id, { expiresInSeconds: 604_800 })) ?? '');
    expect(url.searchParams.get('X-Amz-Expires')).toBe('604800');
    expect(await (await fetch(url)).text()).toBe('signed\n');
    for (const expiresInSeconds of [0, -5, 1.5, Number.NaN, 604_801]) {
      expect(await errorCode(store.dataUrl(record.id, { expiresInSeconds }))).toBe(
        'E_INVALID_ARGUMENT',
      );
    }
  });

  it('finds the newest by name, and hides and collects expired artifacts', async () => {
    let now = 1_000_000;
    const store = await openStore({ now: () => now });
    const old = await store.put('first\n', { name: 'report' });
    now += 10;
    const newer = await store.put('second\n', { name: 'report', ttl: 1_000 });
    expect((await store.info('report'))?.id).toBe(newer.id);
    expect((await store.list()).map((record) => record.id)).toEqual([newer.id, old.id]);
    now += 1_000;
    expect((await store.info('report'))?.id).toBe(old.id);
    expect(await errorCode(store.get(newer.id))).toBe('E_ARTIFACT_NOT_FOUND');
    const report = await store.gc();
    expect(report.expired).toEqual([newer.id]);
    expect(await store.list()).toEqual([await store.info(old.id)]);
  });

  it('keeps every byte of CRLF, invalid UTF-8 and empty artifacts', async () => {
    const store = await openStore();
    for (const [label, bytes] of Object.entries({
      ...edgeCaseInputs(),
      crlf: Buffer.from('one\r\ntwo\r\n\r\nthree'),
      invalid: Buffer.from([0x61, 0xff, 0xfe, 0x0a, 0xc3, 0x28, 0x0a, 0x62]),
      empty: new Uint8Array(),
    })) {
      const record = await store.put(bytes, { name: label });
      await using artifact = await store.get(record.id);
      const read = Buffer.from(await artifact.reader.read(0, bytes.length + 10));
      // Compared as a whole: a deep equality of 5 MiB byte by byte takes the test's time.
      expect(read.equals(bytes), label).toBe(true);
      expect(record.byteLength, label).toBe(bytes.length);
    }
  });

  it('streams a 24 MiB source in parts and tails it with two range requests', async () => {
    const store = await openStore();
    const lines = 240_000;
    const record = await store.put(numberedLines(lines), { name: 'big' });
    expect(record).toMatchObject({ byteLength: lines * 100, lineCount: lines });
    const uploads = s3().requests.filter((request) => /[?&]partNumber=/.test(request.url));
    expect(uploads.length).toBeGreaterThanOrEqual(3); // 8 MiB parts
    const before = s3().requests.length;
    await using artifact = await store.get('big');
    const tail = await artifact.tail(2);
    expect(tail.map((line) => line.text)).toEqual([
      `${`line ${lines - 2} `.padEnd(99, '.')}`,
      `${`line ${lines - 1} `.padEnd(99, '.')}`,
    ]);
    const reads = s3()
      .requests.slice(before)
      .filter((request) => request.url.includes('.data'));
    expect(reads.length).toBe(2); // the first block (length, ETag), then the tail
    expect(reads.every((request) => request.range !== undefined)).toBe(true);
    expect(reads[1]?.ifMatch).toMatch(/^"/);
  });

  it('fails with E_REMOTE_CHANGED when the data is replaced while read, never mixing bytes', async () => {
    const store = await openStore();
    const record = await store.put(numberedLines(20_000), { name: 'replaced' });
    await using artifact = await store.get(record.id);
    await artifact.head(1);
    const key = `${prefixOf(store)}objects/${record.id}.data`;
    await putObject(s3(), key, Buffer.alloc(record.byteLength, 'x')); // same length, new ETag
    expect(await errorCode(artifact.tail(1))).toBe('E_REMOTE_CHANGED');
  });

  it('aborts the upload of the last parts when the signal comes after the source ended', async () => {
    const store = await openStore();
    const controller = new AbortController();
    async function* ending() {
      yield* numberedLines(100_000); // 10 MiB: two parts, the last sent after the source ends
      setImmediate(() => controller.abort());
    }
    expect(await errorCode(store.put(ending(), { signal: controller.signal }))).toBe('E_ABORTED');
    expect(await store.list()).toEqual([]);
    const keys = await listKeys(s3(), prefixOf(store));
    expect(keys.filter((key) => key.includes('/objects/'))).toEqual([]);
  });

  it('leaves nothing visible when a put is aborted midway; gc removes its marker', async () => {
    const store = await openStore();
    const controller = new AbortController();
    const partsSent = () => s3().requests.filter((request) => /partNumber=/.test(request.url));
    const before = partsSent().length;
    async function* slow() {
      yield* numberedLines(100_000); // 10 MiB: the first 8 MiB part goes out
      while (partsSent().length === before) await new Promise((resolve) => setTimeout(resolve, 10));
      controller.abort();
      yield 'never\n';
    }
    expect(await errorCode(store.put(slow(), { signal: controller.signal }))).toBe('E_ABORTED');
    expect(await store.list()).toEqual([]);
    const prefix = prefixOf(store);
    // s3rver refuses AbortMultipartUpload: the marker stays for gc to try again.
    expect(await listKeys(s3(), prefix)).toEqual([
      expect.stringMatching(/\/uploads\/[\w-]{22}\.json$/),
    ]);
    const report = await store.gc({ graceMilliseconds: 0 });
    expect(report.temporary).toEqual([expect.stringMatching(/\/uploads\//)]);
    expect(report.unabortedUploads).toHaveLength(1);
    expect(await listKeys(s3(), prefix)).toEqual([]);
  });
  it('rejects with the source’s own error when the source fails midway, leaving nothing visible', async () => {
    const store = await openStore();
    for (const lines of [1, 100_000]) {
      // One line: nothing uploaded yet; 10 MiB: a part out already.
      const failure = new Error('the tool crashed');
      async function* failing() {
        yield* numberedLines(lines);
        throw failure;
      }
      await expect(store.put(failing(), { name: 'crashed' })).rejects.toBe(failure);
    }
    expect(await store.list()).toEqual([]);
    const keys = await listKeys(s3(), prefixOf(store));
    expect(keys.filter((key) => key.includes('/objects/'))).toEqual([]);
  });
});
