// The free names of the TSDoc examples in src/grep/ (see common.ts).
import type { LineMatcher } from '../../src/engine.js';

export declare const block: Buffer;
export declare const batch: Uint8Array;
export declare const lineBytes: Uint8Array;
export declare const regexMatcher: LineMatcher;
