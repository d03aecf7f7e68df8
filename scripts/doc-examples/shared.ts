// The free names of the TSDoc examples in src/shared/ (see common.ts).
export { Worker } from 'node:worker_threads';

export declare const iterator: AsyncIterator<Uint8Array>;
export declare const request: { body: AsyncIterable<Uint8Array> };
export declare const writer: { write(chunk: Uint8Array): Promise<void> };
export declare function tooBusy(): void;
export declare function runQuery(): Promise<void>;
