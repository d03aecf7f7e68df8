import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { isS3NotFound, s3Error } from './s3-error.js';

/**
 * One listed object: its key and when the server last wrote it (its clock, epoch ms).
 */
export interface S3Listed {
  key: string;
  lastModified: number;
}

/**
 * The few object operations a store needs, on one bucket, with failures as `SpoolforgeError`s
 * (see `s3Error`) that name `s3://bucket/key`.
 *
 * @example
 * ```ts
 * const objects = new S3Objects(client, 'artifacts');
 * const bytes = await objects.get('prefix/objects/<id>.msgpack', { end: 16_383 });
 * ```
 */
export class S3Objects {
  readonly client: S3Client;
  readonly bucket: string;

  constructor(client: S3Client, bucket: string) {
    this.client = client;
    this.bucket = bucket;
  }

  /** `s3://bucket/key`, for messages. */
  url(key = ''): string {
    return `s3://${this.bucket}/${key}`;
  }

  /** The object's bytes (up to byte `end`, inclusive); `undefined` when there is no such key. */
  async get(key: string, options: { end?: number } = {}): Promise<Uint8Array | undefined> {
    const range = options.end === undefined ? {} : { Range: `bytes=0-${options.end}` };
    try {
      const reply = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: key, ...range }),
      );
      return (await reply.Body?.transformToByteArray()) ?? new Uint8Array();
    } catch (error) {
      if (isS3NotFound(error)) return undefined;
      throw s3Error(error, `Reading ${this.url(key)}`);
    }
  }

  /** True when `key` exists. */
  async exists(key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return true;
    } catch (error) {
      if (isS3NotFound(error)) return false;
      throw s3Error(error, `Reading ${this.url(key)}`);
    }
  }

  async put(key: string, body: Uint8Array | string, contentType: string): Promise<void> {
    await this.client
      .send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Body: body,
          ContentType: contentType,
        }),
      )
      .catch((error: unknown) => {
        throw s3Error(error, `Writing ${this.url(key)}`);
      });
  }

  /** Deletes `key`; a missing key is fine (S3 answers 204 for it too). */
  async delete(key: string): Promise<void> {
    await this.client
      .send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }))
      .catch((error: unknown) => {
        if (!isS3NotFound(error)) throw s3Error(error, `Deleting ${this.url(key)}`);
      });
  }

  /** Every object under `prefix`, page after page. */
  async list(prefix: string, signal?: AbortSignal): Promise<S3Listed[]> {
    const listed: S3Listed[] = [];
    let token: string | undefined;
    do {
      const page = await this.client
        .send(
          new ListObjectsV2Command({
            Bucket: this.bucket,
            Prefix: prefix,
            ...(token === undefined ? {} : { ContinuationToken: token }),
          }),
          signal === undefined ? {} : { abortSignal: signal },
        )
        .catch((error: unknown) => {
          throw s3Error(error, `Listing ${this.url(prefix)}`, signal);
        });
      for (const entry of page.Contents ?? []) {
        if (entry.Key === undefined) continue;
        listed.push({ key: entry.Key, lastModified: entry.LastModified?.getTime() ?? 0 });
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
    return listed;
  }
}
