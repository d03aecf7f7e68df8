import { isArtifactId } from '../artifact-id.js';
import type { StoreFileRole } from '../store-paths.js';

const objectPattern = /^([A-Za-z0-9_-]{22})\.(data|msgpack)$/;
const markerPattern = /^([A-Za-z0-9_-]{22})\.json$/;

/**
 * Where an S3 store keeps what, under its prefix: `objects/<id>.data` and `objects/<id>.msgpack`
 * (the sidecar, written last) for artifacts, `uploads/<id>.json` for the marker of a put under
 * way. Keys derive from ids only.
 *
 * @example
 * ```ts
 * const keys = new S3Keys('agents/prod/');
 * keys.object(id, 'sidecar'); // 'agents/prod/objects/<id>.msgpack'
 * ```
 */
export class S3Keys {
  /** The prefix, empty or ending in `/`. */
  readonly prefix: string;
  readonly objects: string;
  readonly uploads: string;

  constructor(prefix: string) {
    this.prefix = prefix === '' || prefix.endsWith('/') ? prefix : `${prefix}/`;
    this.objects = `${this.prefix}objects/`;
    this.uploads = `${this.prefix}uploads/`;
  }

  object(id: string, role: StoreFileRole): string {
    return `${this.objects}${id}.${role === 'data' ? 'data' : 'msgpack'}`;
  }

  marker(id: string): string {
    return `${this.uploads}${id}.json`;
  }

  /** The id and role an object key stands for, or `undefined` for any other key. */
  parseObject(key: string): { id: string; role: StoreFileRole } | undefined {
    if (!key.startsWith(this.objects)) return undefined;
    const match = objectPattern.exec(key.slice(this.objects.length));
    if (!match?.[1]) return undefined;
    return { id: match[1], role: match[2] === 'data' ? 'data' : 'sidecar' };
  }

  /** The id of a marker key, or `undefined`. */
  parseMarker(key: string): string | undefined {
    if (!key.startsWith(this.uploads)) return undefined;
    const id = markerPattern.exec(key.slice(this.uploads.length))?.[1];
    return id !== undefined && isArtifactId(id) ? id : undefined;
  }
}
