import { mkdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  ArtifactStore,
  type SpooledArtifact,
  SpoolforgeError,
  type StoredArtifactRecord,
} from 'spoolforge';
import { LineIndex } from 'spoolforge/engine';
import { describe, expect, it } from 'vitest';
import { tempDirectory, tempFile } from '../helpers/temp-files.js';
import { errorCode, openStore } from './store-helpers.js';

/** ~1 MiB of lines of varied length: 16 checkpoints in the line index at its 64 KiB stride. */
const lineTotal = 20_000;
const log = Array.from(
  { length: lineTotal },
  (_, line) => `${line + 1} ${'abcdefgh'.repeat(1 + (line % 11))}\n`,
).join('');
const lines = log.split('\n').slice(0, -1);
const sampled = Array.from({ length: 41 }, (_, step) => Math.min(lineTotal - 1, step * 499));

const sidecarPath = (store: ArtifactStore, record: StoredArtifactRecord) =>
  join(store.directory, 'objects', `${record.id}.msgpack`);

/** The sampled lines the artifact gives, each by its own lookup through the line index. */
async function sampledLines(artifact: SpooledArtifact): Promise<string[]> {
  const shown: string[] = [];
  for (const line of sampled)
    shown.push(...(await artifact.cat(line, line + 1)).map((l) => l.text));
  return shown;
}

describe('ArtifactStore: damaged sidecars', () => {
  it('never answers from a sidecar with any one byte flipped: right answers or E_ARTIFACT_DAMAGED', async () => {
    const store = await openStore();
    const record = await store.put(log, { name: 'flipped', metadata: { job: 7 } });
    const path = sidecarPath(store, record);
    const original = await readFile(path);
    const truth = sampled.map((line) => lines[line]);
    const wrong: string[] = [];
    for (let position = 0; position < original.length; position++) {
      for (const mask of [0x01, 0x80]) {
        const flipped = Buffer.from(original);
        flipped[position] = (flipped[position] as number) ^ mask;
        await writeFile(path, flipped);
        const answer = await (async () => {
          const info = await store.info(record.id);
          await using artifact = await store.get(record.id);
          return { info, count: await artifact.lineCount(), shown: await sampledLines(artifact) };
        })().catch((error: unknown) => ({ error }));
        if ('error' in answer) {
          if (
            SpoolforgeError.isInstance(answer.error) &&
            answer.error.code === 'E_ARTIFACT_DAMAGED'
          )
            continue;
          wrong.push(`byte ${position} ^ ${mask}: ${String(answer.error)}`);
          continue;
        }
        const right =
          JSON.stringify(answer.info) === JSON.stringify(record) &&
          answer.count === lineTotal &&
          JSON.stringify(answer.shown) === JSON.stringify(truth);
        if (!right) wrong.push(`byte ${position} ^ ${mask}`);
      }
    }
    expect(wrong).toEqual([]);
    await writeFile(path, original);
    await using restored = await store.get(record.id);
    expect(await sampledLines(restored)).toEqual(truth);
  });

  it('refuses a line index whose checkpoints were shifted but still ascend', async () => {
    const store = await openStore();
    const record = await store.put(log, { name: 'shifted' });
    const path = sidecarPath(store, record);
    const bytes = await readFile(path);
    // The checkpoints' line numbers are msgpack integers past the header: nudge each one
    // (positive fixints and uint16s) by one, keeping them ascending.
    const text = bytes.toString('latin1');
    const at = text.lastIndexOf('lines');
    expect(at).toBeGreaterThan(0);
    let nudged = 0;
    for (let position = at + 6; position < bytes.length - 3 && nudged < 8; position++) {
      if (bytes[position] === 0xcd) {
        bytes.writeUInt16BE(bytes.readUInt16BE(position + 1) + 1, position + 1);
        position += 2;
        nudged++;
      }
    }
    expect(nudged).toBeGreaterThan(0);
    await writeFile(path, bytes);
    expect(await errorCode(store.get(record.id))).toBe('E_ARTIFACT_DAMAGED');
  });

  it('names the damaged newest artifact on a lookup by name instead of returning an older one', async () => {
    const store = await openStore();
    const older = await store.put('the old report\n', { name: 'report' });
    const newer = await store.put('the new report\n', { name: 'report' });
    const path = sidecarPath(store, newer);
    // Garbled past reading: not even its name can be told.
    await writeFile(path, Buffer.from([0xc1, 0x00, 0xff]));
    // One lookup at a time: a second one started early would reject with no handler yet.
    for (const lookup of [() => store.get('report'), () => store.info('report')]) {
      const error = await lookup().catch((reason: unknown) => reason);
      expect(error).toMatchObject({
        code: 'E_ARTIFACT_DAMAGED',
        message: expect.stringContaining(newer.id),
      });
    }
    // By id the older one is still there, and deleting the damaged one by id clears the way.
    expect((await store.info(older.id))?.id).toBe(older.id);
    expect(await store.delete(newer.id)).toBe(true);
    expect((await store.info('report'))?.id).toBe(older.id);
  });

  it('a damaged artifact older than the newest with that name is no obstacle', async () => {
    const store = await openStore();
    const older = await store.put('the old report\n', { name: 'report' });
    await writeFile(sidecarPath(store, older), Buffer.from([0xc1]));
    const longAgo = new Date(Date.now() - 60_000);
    await utimes(sidecarPath(store, older), longAgo, longAgo);
    const newer = await store.put('the new report\n', { name: 'report' });
    expect((await store.info('report'))?.id).toBe(newer.id);
    expect(await errorCode(store.get('no such name'))).toBe('E_ARTIFACT_NOT_FOUND');
  });

  it('reads a sidecar of the first format, written before sidecars had checksums', async () => {
    const store = await openStore();
    const record = await store.put(log, { name: 'old format' });
    const { encode } = await import('@msgpack/msgpack');
    const index = new LineIndex();
    index.append(Buffer.from(log));
    // Format 1: the header map itself first, then the snapshot, no checksums.
    const header = { format: 1, ...record, writtenAt: record.createdAt };
    await writeFile(
      sidecarPath(store, record),
      Buffer.concat([encode(header, { ignoreUndefined: true }), encode(index.snapshot())]),
    );
    await using artifact = await store.get('old format');
    expect(await artifact.lineCount()).toBe(lineTotal);
    expect(await sampledLines(artifact)).toEqual(sampled.map((line) => lines[line]));
  });
});

describe('ArtifactStore: ttl', () => {
  it('takes Infinity, MAX_SAFE_INTEGER and 1e16 as "never expires"', async () => {
    const store = await openStore();
    for (const ttl of [Number.POSITIVE_INFINITY, Number.MAX_SAFE_INTEGER, 1e16]) {
      const record = await store.put('forever\n', { ttl });
      expect(record.expiresAt).toBeUndefined();
      expect((await store.info(record.id))?.expiresAt).toBeUndefined();
    }
    const forever = await openStore({ defaultTtl: Number.POSITIVE_INFINITY });
    expect((await forever.put('x\n')).expiresAt).toBeUndefined();
    const day = await store.put('a day\n', { ttl: 86_400_000 });
    expect(day.expiresAt).toBe(day.createdAt + 86_400_000);
  });

  it('refuses a negative or NaN ttl with E_INVALID_ARGUMENT', async () => {
    const store = await openStore();
    for (const ttl of [-1, Number.NaN, Number.NEGATIVE_INFINITY]) {
      expect(await errorCode(store.put('x\n', { ttl }))).toBe('E_INVALID_ARGUMENT');
      expect(await errorCode(openStore({ defaultTtl: ttl }))).toBe('E_INVALID_ARGUMENT');
    }
  });
});

describe('ArtifactStore.open failures', () => {
  it('gives a SpoolforgeError with the cause when the path is a file or lies under one', async () => {
    const file = await tempFile('not a directory\n');
    for (const directory of [file, join(file, 'store')]) {
      const error = await ArtifactStore.open(directory).catch((reason: unknown) => reason);
      expect(error).toMatchObject({
        name: 'SpoolforgeError',
        code: 'E_IO',
        message: expect.stringContaining(`Cannot open the artifact store at ${directory}`),
        cause: { code: expect.stringMatching(/^(EEXIST|ENOTDIR)$/) },
      });
    }
    // A store whose objects/ is a file is refused the same way.
    const root = join(await tempDirectory(), 'store');
    await mkdir(root);
    await writeFile(join(root, 'objects'), 'a file where a folder belongs');
    const error = await ArtifactStore.open(root).catch((reason: unknown) => reason);
    expect(error).toMatchObject({ code: 'E_IO', message: expect.stringContaining(root) });
  });
});
