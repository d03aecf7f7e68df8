// The free names of the TSDoc examples in src/mcp/listen/ (see common.ts): a proxy to serve.
import type { McpSpoolProxy } from '../../src/mcp/proxy/mcp-spool-proxy.js';

export declare const proxy: McpSpoolProxy;
