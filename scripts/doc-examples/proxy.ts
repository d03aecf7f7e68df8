// The free names of the TSDoc examples in src/mcp/proxy/ (see common.ts): the SDK's stdio
// transports and error, a proxy's store, and the proxy's stdio upstream transport.

import type { CallToolRequest } from '@modelcontextprotocol/sdk/types.js';
import type { ReferenceScope } from '../../src/artifact/references/resolve-references.js';
import type { StdioUpstreamTransport } from '../../src/mcp/upstream/stdio-upstream-transport.js';
import type { ArtifactStore } from '../../src/store/artifact-store.js';

export { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
export { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
export { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
export declare const store: ArtifactStore;
export declare const transport: StdioUpstreamTransport;
export declare const callToolRequest: CallToolRequest;
export declare const storeScope: ReferenceScope;
