import { DeleteObjectCommand, type ListObjectsV2CommandOutput, S3Client } from '@aws-sdk/client-s3';
import { openS3ArtifactStore } from 'spoolforge/s3';
import { describe, expect, it } from 'vitest';
import { freshPrefix, listKeys, putObject, rawClient, useS3Server } from './s3-store-helpers.js';
import { errorCode } from './store-helpers.js';

const s3 = useS3Server();

/** A store on the test server, through `client` (a machine's own, tampered with) if given. */
async function openStore(prefix: string, heartbeatMilliseconds = 10_000, client?: S3Client) {
  const server = s3();
  return openS3ArtifactStore({
    bucket: server.bucket,
    prefix,
    ...(client ? { client } : { clientConfig: server.clientConfig }),
    heartbeatMilliseconds,
  });
}

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** A promise and the function that resolves it. */
function latch(): { reached: Promise<void>; open: () => void } {
  let open: () => void = () => undefined;
  const reached = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { reached, open };
}

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

  it('keeps the data of a put that completes while gc lists page after page', async () => {
    const prefix = freshPrefix();
    const server = s3();
    // Machine A's client holds the sidecar's PUT until told, as a slow network would.
    const held = latch();
    const released = latch();
    const clientA = new S3Client({ ...server.clientConfig });
    clientA.middlewareStack.add(
      (next, context) => async (args) => {
        const key = (args.input as { Key?: string }).Key ?? '';
        if (context.commandName === 'PutObjectCommand' && key.endsWith('.msgpack')) {
          held.open();
          await released.reached;
        }
        return next(args);
      },
      { step: 'initialize' },
    );
    const writer = await openStore(prefix, 200, clientA);
    // A key of someone else's after the store's objects: the listing reaches it on a page of
    // its own, between the data's page and the markers'.
    await putObject(server, `${prefix}objects/~notes`, 'not the store’s\n');
    const put = writer.put('data of a put under way\n', { name: 'racing' });
    await held.reached;
    await sleep(3_500); // the data is now older than the grace below; the marker stays fresh

    // Machine B lists one key a page, as a bucket of thousands of keys would page (s3rver cannot
    // make continuation tokens: each page here is a fresh listing that starts after the last key
    // of the previous one, as S3's are). A completes its put once B has listed past its sidecar.
    const clientB = new S3Client({ ...server.clientConfig });
    clientB.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName !== 'ListObjectsV2Command') return next(args);
        const input = args.input as { ContinuationToken?: string; StartAfter?: string };
        if (input.ContinuationToken !== undefined) {
          input.StartAfter = input.ContinuationToken;
          delete input.ContinuationToken;
        }
        const result = await next(args);
        const output = result.output as ListObjectsV2CommandOutput;
        const [first, ...rest] = output.Contents ?? [];
        output.Contents = first ? [first] : [];
        output.IsTruncated = rest.length > 0;
        if (first?.Key !== undefined && rest.length > 0) output.NextContinuationToken = first.Key;
        if (first?.Key === `${prefix}objects/~notes`) {
          released.open();
          await put;
        }
        return result;
      },
      { step: 'initialize' },
    );
    const collector = await openStore(prefix, 10_000, clientB);
    const report = await collector.gc({ graceMilliseconds: 2_500 });
    released.open();
    const record = await put;
    expect(report.orphans).toEqual([]);
    await using artifact = await collector.get(record.id);
    expect((await artifact.head(1)).map((line) => line.text)).toEqual(['data of a put under way']);
  });
  it('never publishes a put whose heartbeat failed and whose data gc took meanwhile', async () => {
    const prefix = freshPrefix();
    const server = s3();
    // Machine A's client: its data's upload answers only when told, and its heartbeats fail
    // meanwhile (a network partition longer than gc's grace).
    const uploaded = latch();
    const released = latch();
    let partitioned = false;
    const clientA = new S3Client({ ...server.clientConfig });
    clientA.middlewareStack.add(
      (next, context) => async (args) => {
        const key = (args.input as { Key?: string }).Key ?? '';
        if (context.commandName !== 'PutObjectCommand') return next(args);
        if (partitioned && key.endsWith('.json')) throw new Error('network partition');
        const result = await next(args);
        if (key.endsWith('.data')) {
          partitioned = true;
          uploaded.open();
          await released.reached;
          partitioned = false;
        }
        return result;
      },
      { step: 'initialize' },
    );
    const writer = await openStore(prefix, 200, clientA);
    const put = writer.put('cut off\n', { name: 'partitioned' });
    put.catch(() => undefined);
    await uploaded.reached;
    await sleep(3_500); // the marker and the data are now older than the grace below
    const collector = await openStore(prefix);
    const report = await collector.gc({ graceMilliseconds: 2_500 });
    expect(report.temporary).toHaveLength(1);
    expect(report.orphans).toEqual([expect.stringMatching(/\.data$/)]);
    released.open();
    expect(await errorCode(put)).toBe('E_REMOTE_NOT_FOUND');
    expect(await collector.list()).toEqual([]);
    expect(await listKeys(s3(), prefix)).toEqual([]);
  });
});
