// The free names of the TSDoc examples in src/mcp/upstream/ (see common.ts and mcp.ts).
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { MessageShape } from '../../src/mcp/upstream/message-shape.js';
import type { SpillSink } from '../../src/mcp/upstream/spill-sink.js';
import type { SpilledValues } from '../../src/mcp/upstream/spilled-values.js';
import type { StdioUpstreamTransport } from '../../src/mcp/upstream/stdio-upstream-transport.js';
import type { SpoolWriter } from '../../src/spool/spool-writer.js';
import type { ArtifactStore } from '../../src/store/artifact-store.js';

export declare const spilled: SpilledValues;
export declare const sink: SpillSink;
export declare const pending: Promise<void>[];
export declare const shape: MessageShape;
export declare const transport: StdioUpstreamTransport;
export declare const store: ArtifactStore;
export declare const writer: SpoolWriter;
export declare const message: JSONRPCMessage;
export declare const token: string;
export declare const structuredContent: Record<string, unknown> | undefined;
export declare const result: { content: { type: string; text?: string }[] };
