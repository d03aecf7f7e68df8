// The free names of the TSDoc examples in src/store/ (see common.ts).
import type { FileHandle } from 'node:fs/promises';
import type { SpoolSource } from '../../src/index.js';
import type { PageCacheWriter } from '../../src/spool/page-cache-writer.js';
import type { SidecarListing } from '../../src/store/sidecar-scan.js';
import type { StoreBackend } from '../../src/store/store-backend.js';
import type { StorePaths } from '../../src/store/store-paths.js';

export { rm } from 'node:fs/promises';
export { dirname } from 'node:path';

export declare const paths: StorePaths;
export declare const root: string;
export declare const handle: FileHandle;
export declare const source: SpoolSource;
export declare const writer: PageCacheWriter;
export declare const listing: SidecarListing;
export declare const backend: StoreBackend;
export declare const createdAt: number;
export declare const ttl: number;
export declare const writerPid: number;
export declare const temporaryFile: string;
