// The free names of the TSDoc examples in src/mcp/file-server/ (see common.ts): the pieces of
// a file server an example takes as already made.
import type { ToolMethodDescriptor } from '../../src/artifact/forge/tool-method-descriptor.js';
import type { SpooledArtifact } from '../../src/artifact/spooled-artifact.js';
import type { ConfinedPaths } from '../../src/mcp/file-server/confined-paths.js';
import type { FileTargets } from '../../src/mcp/file-server/file-targets.js';
import type { UrlAllowList } from '../../src/mcp/file-server/url-allow-list.js';

export { stat } from 'node:fs/promises';
export { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

export declare const paths: ConfinedPaths;
export declare const urls: UrlAllowList;
export declare const targets: FileTargets;
export declare const method: ToolMethodDescriptor<SpooledArtifact>;
export declare const url: string;
export { HttpSpoolReader } from '../../src/spool/http/http-spool-reader.js';
