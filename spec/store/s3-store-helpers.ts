import { ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll } from 'vitest';
import { type S3TestServer, startS3Server } from '../helpers/s3-server.js';

/** One s3rver for the spec file, started before its tests and stopped after. */
export function useS3Server(): () => S3TestServer {
  let server: S3TestServer | undefined;
  beforeAll(async () => {
    server = await startS3Server();
  });
  afterAll(async () => {
    await server?.close();
  });
  return () => {
    if (!server) throw new Error('the S3 server is not running');
    return server;
  };
}

let prefixes = 0;

/** A prefix no other test of the file uses, so each test sees a store of its own. */
export function freshPrefix(): string {
  prefixes += 1;
  return `test-${process.pid}-${prefixes}/`;
}

/** A client of the test server of its own, as another machine would have. */
export function rawClient(server: S3TestServer): S3Client {
  return new S3Client({ ...server.clientConfig });
}

/** The keys under `prefix`, sorted. */
export async function listKeys(server: S3TestServer, prefix: string): Promise<string[]> {
  const page = await rawClient(server).send(
    new ListObjectsV2Command({ Bucket: server.bucket, Prefix: prefix }),
  );
  return (page.Contents ?? []).map((entry) => entry.Key ?? '').sort();
}

/** Writes `body` at `key`, bypassing the store. */
export async function putObject(server: S3TestServer, key: string, body: string | Uint8Array) {
  await rawClient(server).send(
    new PutObjectCommand({ Bucket: server.bucket, Key: key, Body: body }),
  );
}

/** The key prefix of a store, from its `s3://bucket/prefix` location. */
export function prefixOf(store: { location: string }): string {
  return store.location.split('/').slice(3).join('/');
}
