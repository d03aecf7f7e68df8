// The free names of the TSDoc examples in src/spool/ (see common.ts).
import type { FileHandle } from 'node:fs/promises';

export { open } from 'node:fs/promises';
export { parentPort, workerData } from 'node:worker_threads';

export declare const handle: FileHandle;
export declare const recycledBuffer: Uint8Array;
export declare const tasks: unknown[];
/** A worker's task. */
export declare function run(task: unknown): Promise<unknown>;
export declare function write(records: Uint8Array): void;
export { openSync, readSync } from 'node:fs';
export { stat } from 'node:fs/promises';
