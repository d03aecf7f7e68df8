import { hostname } from 'node:os';
import type { S3Keys } from './s3-keys.js';
import type { S3Objects } from './s3-objects.js';

/**
 * What a marker object says of a put under way: which data key it writes, the multipart upload
 * (once the SDK has created one), and who runs it, for people reading the bucket.
 *
 * @example
 * ```ts
 * const marker: UploadMarkerBody = JSON.parse(text);
 * ```
 */
export interface UploadMarkerBody {
  id: string;
  key: string;
  uploadId?: string;
  hostname: string;
  pid: number;
  startedAt: number;
  heartbeatAt: number;
}

/**
 * The marker `uploads/<id>.json` of one put, rewritten every `heartbeatMilliseconds` while the
 * put runs, so `gc` on any machine tells a live put (fresh marker) from a dead one (a marker
 * older than its grace) and can abort the dead one's multipart upload. S3 itself cannot tell:
 * many servers do not list multipart uploads.
 *
 * @example
 * ```ts
 * const marker = await UploadMarker.start({ objects, keys, id, heartbeatMilliseconds: 10_000 });
 * marker.uploadId = () => upload.uploadId;
 * await marker.finish();
 * ```
 */
export class UploadMarker {
  readonly #objects: S3Objects;
  readonly key: string;
  readonly #body: UploadMarkerBody;
  readonly #timer: NodeJS.Timeout;
  #beat: Promise<void> = Promise.resolve();
  /** Where the heartbeat learns the multipart upload's id. */
  uploadId: () => string | undefined = () => undefined;

  private constructor(objects: S3Objects, keys: S3Keys, id: string, heartbeatMilliseconds: number) {
    this.#objects = objects;
    this.key = keys.marker(id);
    const startedAt = Date.now();
    this.#body = {
      id,
      key: keys.object(id, 'data'),
      hostname: hostname(),
      pid: process.pid,
      startedAt,
      heartbeatAt: startedAt,
    };
    this.#timer = setInterval(() => {
      this.#beat = this.#beat.then(() => this.#write()).catch(() => undefined); // best effort
    }, heartbeatMilliseconds);
    this.#timer.unref();
  }

  /** Writes the marker (before any byte of data is uploaded) and starts its heartbeat. */
  static async start(options: {
    objects: S3Objects;
    keys: S3Keys;
    id: string;
    heartbeatMilliseconds: number;
  }): Promise<UploadMarker> {
    const { objects, keys, id, heartbeatMilliseconds } = options;
    const marker = new UploadMarker(objects, keys, id, heartbeatMilliseconds);
    try {
      await marker.#write();
    } catch (error) {
      marker.stop();
      throw error;
    }
    return marker;
  }

  /** Rewrites the marker now, after any heartbeat under way. Best effort. */
  async beat(): Promise<void> {
    this.#beat = this.#beat.then(() => this.#write()).catch(() => undefined);
    await this.#beat;
  }

  /** Stops the heartbeat, leaving the marker to go stale: `gc` finishes what the put left. */
  stop(): void {
    clearInterval(this.#timer);
  }

  /**
   * Stops the heartbeat after writing the marker once more (with the upload's id, learnt
   * late), for `gc` to abort the upload the server refused to abort now. Best effort.
   */
  async abandon(): Promise<void> {
    this.stop();
    await this.#beat;
    await this.#write().catch(() => undefined);
  }

  /** Stops the heartbeat and deletes the marker: the put is complete, or fully undone. */
  async finish(): Promise<void> {
    this.stop();
    await this.#beat;
    await this.#objects.delete(this.key);
  }

  async #write(): Promise<void> {
    const uploadId = this.uploadId();
    const body = { ...this.#body, heartbeatAt: Date.now(), ...(uploadId ? { uploadId } : {}) };
    await this.#objects.put(this.key, JSON.stringify(body), 'application/json');
  }
}

/**
 * A marker's body, or `undefined` for one that is not a marker this store wrote.
 *
 * @example
 * ```ts
 * const body = parseUploadMarker(new TextDecoder().decode(bytes));
 * ```
 */
export function parseUploadMarker(text: string): UploadMarkerBody | undefined {
  try {
    const body = JSON.parse(text) as Partial<UploadMarkerBody>;
    if (typeof body.key !== 'string' || typeof body.id !== 'string') return undefined;
    return body as UploadMarkerBody;
  } catch {
    return undefined;
  }
}
