import { DeleteObjectCommand } from '@aws-sdk/client-s3';
import { openS3ArtifactStore } from 'spoolforge/s3';
import { describe, expect, it } from 'vitest';
import { freshPrefix, listKeys, putObject, rawClient, useS3Server } from './s3-store-helpers.js';

const s3 = useS3Server();

async function openStore(prefix: string, heartbeatMilliseconds = 10_000) {
  const server = s3();
  return openS3ArtifactStore({
    bucket: server.bucket,
    prefix,
    clientConfig: server.clientConfig,
    heartbeatMilliseconds,
  });
}

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

describe('gc of an S3 store', () => {
  it('removes orphaned data, sidecars without data and stale markers, after the grace only', async () => {
    const prefix = freshPrefix();
    const store = await openStore(prefix);
    const kept = await store.put('kept\n', { name: 'kept' });
    const lost = await store.put('lost\n', { name: 'lost' });
    await rawClient(s3()).send(
      new DeleteObjectCommand({ Bucket: s3().bucket, Key: `${prefix}objects/${lost.id}.data` }),
    );
    const orphan = `${prefix}objects/${'o'.repeat(22)}.data`;
    await putObject(s3(), orphan, 'no sidecar\n');
    const marker = `${prefix}uploads/${'m'.repeat(22)}.json`;
    await putObject(
      s3(),
      marker,
      JSON.stringify({
        id: 'm'.repeat(22),
        key: `${prefix}objects/${'m'.repeat(22)}.data`,
        uploadId: 'gone',
      }),
    );
    const foreign = `${prefix}objects/notes.txt`;
    await putObject(s3(), foreign, 'not the store’s\n');

    const early = await store.gc();
    expect(early).toMatchObject({ expired: [], orphans: [], temporary: [] });

    await sleep(1_100);
    const report = await store.gc({ graceMilliseconds: 1_000 });
    expect(report.orphans.sort()).toEqual([`${prefix}objects/${lost.id}.msgpack`, orphan].sort());
    expect(report.temporary).toEqual([marker]);
    expect(report.unabortedUploads).toEqual(['gone']); // s3rver refuses AbortMultipartUpload
    expect(await listKeys(s3(), prefix)).toEqual(
      [foreign, `${prefix}objects/${kept.id}.data`, `${prefix}objects/${kept.id}.msgpack`].sort(),
    );
    expect((await store.list()).map((record) => record.id)).toEqual([kept.id]);
  });

  it('never touches a put in flight whose heartbeat is fresh', async () => {
    const prefix = freshPrefix();
    const writer = await openStore(prefix, 200);
    const collector = await openStore(prefix);
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started: () => void = () => undefined;
    const underWay = new Promise<void>((resolve) => {
      started = resolve;
    });
    async function* paused() {
      yield Buffer.alloc(9 * 1024 * 1024, 'a line.\n');
      started();
      await released;
      yield 'the end\n';
    }
    const put = writer.put(paused(), { name: 'paused' });
    await underWay;
    await sleep(3_000); // far past the grace below: only the heartbeat keeps the marker fresh
    // 2.5 s: ten heartbeats, with room for s3rver's whole-second LastModified and a busy machine.
    const report = await collector.gc({ graceMilliseconds: 2_500 });
    expect(report).toMatchObject({ orphans: [], temporary: [], abortedUploads: [] });
    expect(await listKeys(s3(), `${prefix}uploads/`)).toHaveLength(1);
    release();
    const record = await put;
    expect(record.byteLength).toBe(9 * 1024 * 1024 + 8);
    expect(await listKeys(s3(), `${prefix}uploads/`)).toEqual([]);
    await using artifact = await collector.get('paused');
    expect((await artifact.tail(1)).map((line) => line.text)).toEqual(['the end']);
  });
});
