import { mkdtemp, rm } from 'node:fs/promises';
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// s3rver ships no types: the little used here is declared below.
// @ts-expect-error no declaration file
import S3rver from 's3rver';

interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  httpServer: Server;
}

/** What the S3 server saw of one request. */
export interface S3Request {
  method: string;
  /** Path and query, e.g. `/bucket/prefix/objects/<id>.data?uploadId=…`. */
  url: string;
  range: string | undefined;
  ifMatch: string | undefined;
  /** True once the response has been sent. */
  finished: boolean;
  /** The names of its `x-amz-checksum-*` and `x-amz-sdk-checksum-*` headers. */
  checksumHeaders: string[];
}

/** A real S3 server (s3rver) on 127.0.0.1 with one bucket, and what it was asked. */
export interface S3TestServer {
  /** `http://127.0.0.1:port` */
  endpoint: string;
  bucket: string;
  /** The files s3rver keeps its objects in. */
  directory: string;
  /** A client configuration that reaches it: s3rver's fixed credentials, path-style URLs. */
  clientConfig: {
    endpoint: string;
    region: string;
    forcePathStyle: true;
    credentials: { accessKeyId: string; secretAccessKey: string };
  };
  requests: S3Request[];
  /** Response bytes written so far (headers excluded). */
  bytesSent: () => number;
  close: () => Promise<void>;
}

/**
 * Starts s3rver on a random port of 127.0.0.1 over a new temp directory, with bucket
 * `spoolforge`. Call `close()` after the spec (it removes the directory).
 *
 * @example
 * ```ts
 * const s3 = await startS3Server();
 * const store = await openS3ArtifactStore({ bucket: s3.bucket, clientConfig: s3.clientConfig });
 * ```
 */
export async function startS3Server(): Promise<S3TestServer> {
  const directory = await mkdtemp(join(tmpdir(), 'spoolforge-s3rver-'));
  const bucket = 'spoolforge';
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  }) as S3rverInstance;
  const { port } = await server.run();
  const requests: S3Request[] = [];
  let bytes = 0;
  server.httpServer.on('request', (request: IncomingMessage, response) => {
    const logged: S3Request = {
      method: request.method ?? '',
      url: request.url ?? '',
      range: request.headers.range,
      ifMatch: request.headers['if-match'],
      finished: false,
      checksumHeaders: Object.keys(request.headers).filter((name) =>
        /^x-amz-(?:sdk-)?checksum-/.test(name),
      ),
    };
    requests.push(logged);
    response.on('finish', () => {
      logged.finished = true;
    });
    const write = response.write.bind(response);
    const end = response.end.bind(response);
    const count = (chunk: unknown) => {
      if (typeof chunk === 'string' || chunk instanceof Uint8Array) bytes += chunk.length;
    };
    response.write = ((chunk: unknown, ...rest: never[]) => {
      count(chunk);
      return write(chunk as never, ...rest);
    }) as typeof response.write;
    response.end = ((chunk?: unknown, ...rest: never[]) => {
      if (typeof chunk !== 'function') count(chunk);
      return end(chunk as never, ...rest);
    }) as typeof response.end;
  });
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    directory,
    clientConfig: {
      endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    },
    requests,
    bytesSent: () => bytes,
    close: async () => {
      server.httpServer.closeAllConnections();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
