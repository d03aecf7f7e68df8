// The free names of the TSDoc examples in src/spool/http/ (see common.ts).

import type { RangeClient } from '../../src/spool/http/http-range-request.js';
import type { RangeResponse } from '../../src/spool/http/range-response.js';
import type { RemoteIdentity } from '../../src/spool/http/remote-identity.js';
import type { ByteRange } from '../../src/spool/parallel-ranges.js';

export declare const client: RangeClient;
export declare const identity: RemoteIdentity;
export declare const label: string;
export declare const headers: Headers;
export declare const response: RangeResponse;
export declare const range: ByteRange;
export declare const firstBlock: Uint8Array;
export declare const blockA: Uint8Array;
export declare const blockB: Uint8Array;
export declare const answered: Uint8Array;
export declare const wanted: number;
export declare const message: string;
export declare const error: Error;
export declare let count: number;
export declare function scan(chunk: Uint8Array): void;
