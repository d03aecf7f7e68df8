// The free names of the TSDoc examples in src/mcp/ (see common.ts): an MCP SDK client.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

export declare const client: Client;
