import { join } from 'node:path';

/** Which file of an artifact: its bytes or its msgpack sidecar. */
export type StoreFileRole = 'data' | 'sidecar';

const extensions: Record<StoreFileRole, string> = { data: 'data', sidecar: 'msgpack' };
const objectPattern = /^([A-Za-z0-9_-]{22})\.(data|msgpack)$/;
const temporaryPattern = /^([A-Za-z0-9_-]{22})\.([1-9]\d{0,9})\.(data|msgpack)\.partial$/;

/**
 * Where a store keeps what: `objects/<id>.data` and `objects/<id>.msgpack` for finished
 * artifacts, `tmp/<id>.<pid>.<extension>.partial` while a put writes them. File names derive
 * from ids only, and the writer's pid in a temp name tells `gc` a live put from a dead one.
 *
 * @example
 * ```ts
 * const paths = new StorePaths('/var/lib/agent/artifacts');
 * paths.file(id, 'sidecar'); // '/var/lib/agent/artifacts/objects/<id>.msgpack'
 * ```
 */
export class StorePaths {
  readonly root: string;
  readonly objects: string;
  readonly temporary: string;

  constructor(root: string) {
    this.root = root;
    this.objects = join(root, 'objects');
    this.temporary = join(root, 'tmp');
  }

  /** The finished file of an artifact; `id` must already be checked with `isArtifactId`. */
  file(id: string, role: StoreFileRole): string {
    return join(this.objects, `${id}.${extensions[role]}`);
  }

  /** The file a put in process `pid` writes before renaming it into `objects/`. */
  temporaryFile(id: string, role: StoreFileRole, pid = process.pid): string {
    return join(this.temporary, `${id}.${pid}.${extensions[role]}.partial`);
  }

  /** The id and role a file name in `objects/` stands for, or `undefined` for any other name. */
  static parseObjectName(name: string): { id: string; role: StoreFileRole } | undefined {
    const match = objectPattern.exec(name);
    if (!match?.[1]) return undefined;
    return { id: match[1], role: match[2] === 'data' ? 'data' : 'sidecar' };
  }

  /** The writer's pid of a file name in `tmp/`, or `undefined` for any other name. */
  static parseTemporaryName(name: string): { id: string; pid: number } | undefined {
    const match = temporaryPattern.exec(name);
    if (!match?.[1] || !match[2]) return undefined;
    return { id: match[1], pid: Number(match[2]) };
  }
}
