// The free names of the TSDoc examples in src/artifact/json/ (see common.ts).

import type { ToolMethodContext } from '../../src/artifact/forge/tool-method-descriptor.js';
import type { queryJson } from '../../src/artifact/json/json-path-query.js';
import type { JsonEntrySpan, JsonScanError } from '../../src/artifact/json/json-scan-types.js';
import type { JsonEntry, JsonMatch } from '../../src/index.js';

export declare const chunk: Uint8Array;
export declare const nextChunk: Uint8Array;
export declare const valueStart: number;
export declare const valueEnd: number;
export declare const offset: number;
export declare let count: number;
export declare const starts: number[];
export declare const found: JsonMatch[];
export declare const entry: JsonEntry & JsonEntrySpan & { large?: 'array' | 'object' };
export declare const result: Awaited<ReturnType<typeof queryJson>>;
export declare const scanError: JsonScanError;
export declare const tags: unknown;
export declare const methodContext: ToolMethodContext;
export { JSONPath } from 'jsonpath-plus';
