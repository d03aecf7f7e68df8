// The free names of the TSDoc examples in src/mcp/proxy/ (see common.ts): the SDK's stdio
// transports and error, a proxy's store, and the proxy's stdio upstream transport; a result's
// structured content, its text parts and the values diverted from them; a call and a scope.
import type { CallToolRequest } from '@modelcontextprotocol/sdk/types.js';
import type { ReferenceScope } from '../../src/artifact/references/resolve-references.js';
import type { RawStringRange } from '../../src/mcp/proxy/raw-json-strings.js';
import type { SpilledValue, SpilledValues } from '../../src/mcp/upstream/spilled-values.js';
import type { StdioUpstreamTransport } from '../../src/mcp/upstream/stdio-upstream-transport.js';
import type { ArtifactStore } from '../../src/store/artifact-store.js';

export { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
export { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
export { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
export declare const store: ArtifactStore;
export declare const transport: StdioUpstreamTransport;
export declare const spilled: SpilledValues;
export declare const value: SpilledValue;
export declare const spilledValue: SpilledValue;
export declare const structured: unknown;
export declare const texts: string[];
export declare const text: string;
export declare const rawContent: Buffer;
export declare const ranges: RawStringRange[];
export declare const handleText: string;
export declare const callToolRequest: CallToolRequest;
export declare const storeScope: ReferenceScope;
