import { createHash } from 'node:crypto';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  ArtifactStore,
  SpooledArtifact,
  SpooledJsonArtifact,
  SpoolforgeError,
  spool,
} from 'spoolforge';
import { describe, expect, it } from 'vitest';
import { tempDirectory } from '../helpers/temp-files.js';
import { errorCode, openStore } from './store-helpers.js';

/** Lines `line 0 …\n` to `line N-1 …\n` in irregular chunks: strings and bytes mixed. */
async function* numberedLines(count: number): AsyncGenerator<string | Uint8Array> {
  let batch: string[] = [];
  for (let line = 0; line < count; line++) {
    batch.push(`line ${line} ${'·'.repeat(line % 50)}\n`);
    if (batch.length === 997) {
      const text = batch.join('');
      yield line % 2 ? text : Buffer.from(text);
      batch = [];
    }
  }
  yield batch.join('');
}

function expectedBytes(count: number): Buffer {
  const lines = Array.from(
    { length: count },
    (_, line) => `line ${line} ${'·'.repeat(line % 50)}\n`,
  );
  return Buffer.from(lines.join(''));
}

describe('ArtifactStore', () => {
  it('puts, finds, reopens and deletes a text artifact', async () => {
    const store = await openStore();
    const text = 'alpha\nbeta\ngamma';
    const record = await store.put(text, { name: 'greek', metadata: { job: 4812, tags: ['ci'] } });
    expect(record).toMatchObject({
      name: 'greek',
      kind: 'text',
      mediaType: 'text/plain',
      byteLength: 16,
      lineCount: 3,
      expiresAt: undefined,
      metadata: { job: 4812, tags: ['ci'] },
      sha256: createHash('sha256').update(text).digest('hex'),
    });
    expect(record.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(await store.info(record.id)).toEqual(record);
    expect(await store.info('greek')).toEqual(record);
    expect(await store.list()).toEqual([record]);
    expect(await readFile(store.dataFile(record.id), 'utf8')).toBe(text);

    await using artifact = await store.get('greek');
    expect(artifact).toBeInstanceOf(SpooledArtifact);
    expect(artifact.name).toBe('greek');
    expect((await artifact.tail(1)).map((line) => line.text)).toEqual(['gamma']);
    expect(artifact.reader.describe?.()).toEqual({
      kind: 'file',
      locator: store.dataFile(record.id),
    });

    expect(await store.delete('greek')).toBe(true);
    expect(await store.info(record.id)).toBeUndefined();
    expect(await store.list()).toEqual([]);
    expect(await errorCode(store.get(record.id))).toBe('E_ARTIFACT_NOT_FOUND');
    expect(await store.delete(record.id)).toBe(false);
    expect(await readdir(join(store.directory, 'objects'))).toEqual([]);
  });

  it('reopens JSON as a SpooledJsonArtifact, honouring a declared media type or kind', async () => {
    const store = await openStore();
    const json = await store.put('{"users":[{"id":1},{"id":2}]}');
    expect(json).toMatchObject({ kind: 'json', mediaType: 'application/json' });
    await using document = await store.get(json.id);
    expect(document).toBeInstanceOf(SpooledJsonArtifact);
    expect(await (document as SpooledJsonArtifact).query('$.users[*].id')).toMatchObject([
      { value: 1 },
      { value: 2 },
    ]);

    const declared = await store.put('{"a":1}\n', { mediaType: 'application/x-ndjson' });
    expect(declared.kind).toBe('jsonl');
    const forced = await store.put('{"a":1}', { kind: 'text' });
    expect(forced).toMatchObject({ kind: 'text', mediaType: 'text/plain' });
    await using plain = await store.get(forced.id);
    expect(plain).not.toBeInstanceOf(SpooledJsonArtifact);
  });

  it('streams a multi-MiB source and reopens it elsewhere with the stored line index', async () => {
    const count = 200_000;
    const expected = expectedBytes(count);
    expect(expected.length).toBeGreaterThan(8 * 1024 * 1024);
    const store = await openStore();
    const record = await store.put(numberedLines(count), { name: 'numbers' });
    expect(record).toMatchObject({ byteLength: expected.length, lineCount: count });
    expect(record.sha256).toBe(createHash('sha256').update(expected).digest('hex'));

    const reopened = await ArtifactStore.open(store.directory);
    await using artifact = await reopened.get('numbers');
    expect(await artifact.lineCount()).toBe(count);
    expect((await artifact.tail(2)).map((line) => line.text)).toEqual([
      `line ${count - 2} ${'·'.repeat((count - 2) % 50)}`,
      `line ${count - 1} ${'·'.repeat((count - 1) % 50)}`,
    ]);
    const middle = 123_456;
    expect(await artifact.lineOffset(middle)).toBe(expected.indexOf(`\nline ${middle} `) + 1);

    // The same size without a single newline: only a stored index still counts the lines.
    await writeFile(store.dataFile(record.id), Buffer.alloc(expected.length, 'x'));
    await using blind = await reopened.get(record.id);
    expect(await blind.lineCount()).toBe(count);
  });

  it('encodes a surrogate pair split across two string chunks whole', async () => {
    const store = await openStore();
    async function* split() {
      yield 'party \uD83C';
      yield '\uDF89 time\n';
    }
    const record = await store.put(split());
    expect(await readFile(store.dataFile(record.id), 'utf8')).toBe('party 🎉 time\n');
  });

  it('stores an empty source as zero lines', async () => {
    const store = await openStore();
    const record = await store.put(new Uint8Array(0), { name: 'nothing' });
    expect(record).toMatchObject({ byteLength: 0, lineCount: 0, kind: 'text' });
    await using artifact = await store.get('nothing');
    expect(await artifact.head()).toEqual([]);
  });

  it('resolves a name to its newest artifact, even within the same millisecond', async () => {
    const store = await openStore({ now: () => 1_000 });
    const first = await store.put('first\n', { name: 'report' });
    const second = await store.put('second\n', { name: 'report' });
    expect(first.createdAt).toBe(second.createdAt);
    expect((await store.info('report'))?.id).toBe(second.id);
    await using newest = await store.get('report');
    expect((await newest.head()).map((line) => line.text)).toEqual(['second']);
    expect((await store.list()).map((record) => record.id)).toEqual([second.id, first.id]);

    expect(await store.delete('report')).toBe(true);
    expect((await store.info('report'))?.id).toBe(first.id);
  });

  it('prefers an id to a name, and lists newest first by createdAt', async () => {
    let clock = 5_000;
    const store = await openStore({ now: () => clock });
    const target = await store.put('target\n');
    clock = 4_000;
    const older = await store.put('decoy\n', { name: target.id });
    expect((await store.info(target.id))?.id).toBe(target.id);
    expect((await store.list()).map((record) => record.id)).toEqual([target.id, older.id]);
  });

  it('never turns an id or a name into a path', async () => {
    const store = await openStore();
    const record = await store.put('secret\n', { name: '../../etc/passwd' });
    expect(await errorCode(store.get('../../etc/passwd/x'))).toBe('E_ARTIFACT_NOT_FOUND');
    expect(await store.info(`${record.id}/../${record.id}`)).toBeUndefined();
    expect(await store.delete('../objects')).toBe(false);
    expect(await errorCode(Promise.resolve().then(() => store.dataFile('../x')))).toBe(
      'E_INVALID_ARGUMENT',
    );
    // A path-like name is a label: it finds its artifact and appears in no file name.
    expect((await store.info('../../etc/passwd'))?.id).toBe(record.id);
    expect((await readdir(join(store.directory, 'objects'))).sort()).toEqual(
      [`${record.id}.data`, `${record.id}.msgpack`].sort(),
    );
  });

  it('creates its directories 0700 and its files 0600', async () => {
    const parent = await tempDirectory();
    const store = await ArtifactStore.open(join(parent, 'deep', 'er', 'store'));
    const record = await store.put('x\n');
    const mode = async (path: string) => (await stat(path)).mode & 0o777;
    for (const folder of ['', 'objects', 'tmp']) {
      expect(await mode(join(store.directory, folder))).toBe(0o700);
    }
    expect(await mode(store.dataFile(record.id))).toBe(0o600);
    expect(await mode(join(store.directory, 'objects', `${record.id}.msgpack`))).toBe(0o600);
  });

  it('hides expired artifacts at once and lets gc remove them', async () => {
    let clock = 10_000;
    const store = await openStore({ now: () => clock, defaultTtl: 60_000 });
    const brief = await store.put('brief\n', { name: 'brief', ttl: 1_000 });
    const lasting = await store.put('lasting\n', { name: 'lasting' });
    expect(brief.expiresAt).toBe(11_000);
    expect(lasting.expiresAt).toBe(70_000);

    clock = 10_999;
    expect((await store.info('brief'))?.id).toBe(brief.id);
    clock = 11_000;
    expect(await store.info(brief.id)).toBeUndefined();
    expect(await store.info('brief')).toBeUndefined();
    expect(await errorCode(store.get('brief'))).toBe('E_ARTIFACT_NOT_FOUND');
    expect((await store.list()).map((record) => record.id)).toEqual([lasting.id]);
    expect(await store.delete('brief')).toBe(false);

    const report = await store.gc();
    expect(report).toEqual({
      expired: [brief.id],
      orphans: [],
      temporary: [],
      spoolDirectories: [],
    });
    expect((await readdir(join(store.directory, 'objects'))).sort()).toEqual(
      [`${lasting.id}.data`, `${lasting.id}.msgpack`].sort(),
    );
    expect(await errorCode(store.put('x', { ttl: -1 }))).toBe('E_INVALID_ARGUMENT');
  });

  it('aborts a put whose source has gone silent and leaves nothing behind', async () => {
    const store = await openStore();
    const controller = new AbortController();
    async function* stalls() {
      yield 'some bytes\n'.repeat(10_000);
      await new Promise(() => undefined);
    }
    const put = store.put(stalls(), { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('user cancelled')), 50);
    expect(await errorCode(put)).toBe('E_ABORTED');
    expect(await readdir(join(store.directory, 'tmp'))).toEqual([]);
    expect(await readdir(join(store.directory, 'objects'))).toEqual([]);

    expect(await errorCode(store.put('x', { signal: AbortSignal.abort() }))).toBe('E_ABORTED');
    expect(await readdir(join(store.directory, 'tmp'))).toEqual([]);
  });

  it('aborts a put from a source that never waits (the writes let the abort in)', async () => {
    const store = await openStore();
    let produced = 0;
    async function* inMemory() {
      // 512 MiB if nothing stopped it; each chunk is ready at once.
      for (; produced < 8192; produced++) yield Buffer.alloc(64 * 1024, 97);
    }
    const put = store.put(inMemory(), { signal: AbortSignal.timeout(50) });
    expect(await errorCode(put)).toBe('E_ABORTED');
    expect(produced).toBeLessThan(8192);
    expect(await readdir(join(store.directory, 'tmp'))).toEqual([]);
  });

  it('refuses metadata msgpack cannot encode before writing anything', async () => {
    const store = await openStore();
    const put = store.put('x', { metadata: { callback: () => 1 } });
    expect(await errorCode(put)).toBe('E_INVALID_ARGUMENT');
    expect(await readdir(join(store.directory, 'tmp'))).toEqual([]);
  });

  it('refuses a name that is not one line of 1 to 100 characters, as spool() does, before reading', async () => {
    const store = await openStore();
    let read = false;
    async function* source() {
      read = true;
      yield 'x\n';
    }
    for (const name of ['n'.repeat(101), 'two\nlines', 'crlf\r\n', '   ', '']) {
      const refused = await store.put(source(), { name }).catch((error: unknown) => error);
      const bySpool = await spool('x\n', { name }).catch((error: unknown) => error);
      expect(SpoolforgeError.isInstance(refused)).toBe(true);
      expect((refused as SpoolforgeError).code).toBe('E_INVALID_ARGUMENT');
      expect((refused as SpoolforgeError).message).toBe((bySpool as SpoolforgeError).message);
    }
    expect(read).toBe(false);
    expect(await store.list()).toEqual([]);
    expect(await readdir(join(store.directory, 'tmp'))).toEqual([]);
    const longest = await store.put(source(), { name: 'n'.repeat(100) });
    expect((await store.info('n'.repeat(100)))?.id).toBe(longest.id);
  });
});
