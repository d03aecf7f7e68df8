import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type Tool as McpTool,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { strictToolInput } from '../../artifact/forge/forge-tools.js';
import type { ResultLimits } from '../../artifact/forge/model-lines.js';
import type { ArtifactKinds } from '../../artifact/kinds/artifact-kinds.js';
import { defaultArtifactKinds } from '../../artifact/kinds/built-in-kinds.js';
import { executeToolCall } from '../../executor/tool-executor.js';
import { contentText } from '../../executor/tool-result-content.js';
import { SpoolforgeError } from '../../shared/spoolforge-error.js';
import type { HttpSpoolReaderOptions } from '../../spool/http/http-spool-reader-options.js';
import { artifactTool } from '../../tools/artifact-tool.js';
import { DispatchContext } from '../../tools/dispatch-context.js';
import { ToolRegistry } from '../../tools/tool-registry.js';
import { readOnlyMcpTool } from '../read-only-mcp-tool.js';
import { ConfinedPaths } from './confined-paths.js';
import { fileQueryTools, pathArgument } from './file-query-tools.js';
import { FileTargets } from './file-targets.js';
import { listDirectory } from './list-directory.js';
import { UrlAllowList } from './url-allow-list.js';

/**
 * Options for {@link createFileServer}.
 *
 * @example
 * ```ts
 * const options: FileServerOptions = { roots: ['/var/log'], allowUrls: ['https://ci.example.com/logs/'] };
 * ```
 */
export interface FileServerOptions {
  /** Directories whose files may be read (the first is where relative paths start). */
  roots: readonly string[];
  /** http(s) URL prefixes that may be read with Range requests. */
  allowUrls?: readonly string[];
  /** The bounds on every result. Default 50 KiB and 2,000 characters a line. */
  limits?: ResultLimits;
  /** The kinds files are detected as, and so their query tools. Default `defaultArtifactKinds`. */
  kinds?: ArtifactKinds;
  /** Timeout, retries and headers of URL reads. */
  http?: HttpSpoolReaderOptions;
  /** Files and URLs kept open between queries (the least recently used is closed). Default 8. */
  openFiles?: number;
  /** The version the server reports in `initialize`. */
  version?: string;
  /** Closes the server. */
  signal?: AbortSignal;
}

/**
 * spoolforge as an MCP server that queries huge files and URLs in place: `file_read`,
 * `file_grep`, `file_json` and `file_md` are the forged query tools (`artifact_read`, …) with a
 * `path` for `callId`: the same arguments, 1-based inclusive lines, bounds and notes naming the
 * call that continues a cut result; `file_stat` gives bytes, lines and kind, `file_list` a
 * directory's entries (or, with no path, the roots). Paths are confined to `roots` and URLs to
 * `allowUrls`; every failure (a path outside, a missing file, a bad regex, a JSON query of a log)
 * is an `isError` result the model reads. An opened file is kept for the next query (its line
 * index too; from 16 MiB on it is shared with the CLI's cache); closing the server closes them.
 *
 * @example
 * ```ts
 * const server = createFileServer({ roots: ['/var/log'] });
 * await server.connect(new StdioServerTransport());
 * ```
 */
export function createFileServer(options: FileServerOptions): Server {
  const paths = new ConfinedPaths(options.roots);
  const urls = new UrlAllowList(options.allowUrls ?? []);
  if (paths.roots.length === 0 && urls.prefixes.length === 0) {
    throw new SpoolforgeError('E_INVALID_ARGUMENT', 'A file server needs a root or an allowed URL');
  }
  const kinds = options.kinds ?? defaultArtifactKinds;
  const limits = options.limits ?? {};
  const targets = new FileTargets({
    paths,
    urls,
    kinds,
    http: options.http ?? {},
    capacity: options.openFiles ?? 8,
  });
  const [read, grep, ...more] = fileQueryTools(kinds, targets, limits);
  const tools = new ToolRegistry([
    ...(read && grep ? [read, grep] : []),
    statTool(targets),
    listTool(targets, limits),
    ...more,
  ]);
  const definitions: McpTool[] = tools.list().map(readOnlyMcpTool);
  const server = new Server(
    { name: 'spoolforge', version: options.version ?? '0.0.0' },
    { capabilities: { tools: {} }, instructions: instructions(paths, urls) },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: definitions }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: args } = request.params;
    const outcome = await executeToolCall(
      { id: name, name, arguments: args ?? {} },
      tools,
      new DispatchContext({}),
      { signal: extra.signal },
    );
    // Errors quote what the model sent (a URL under a prefix, in the HTTP reader's messages
    // too): the executor has cut them already (errorResultText).
    const content = [{ type: 'text' as const, text: contentText(outcome.content) }];
    return (outcome.isError ? { content, isError: true } : { content }) satisfies CallToolResult;
  });
  const onclose = server.onclose;
  server.onclose = () => {
    onclose?.();
    void targets.close();
  };
  options.signal?.addEventListener('abort', () => void server.close(), { once: true });
  return server;
}

function instructions(paths: ConfinedPaths, urls: UrlAllowList): string {
  const roots = paths.roots.join(', ') || 'none';
  const prefixes = urls.prefixes.length > 0 ? `; URLs under ${urls.prefixes.join(', ')}` : '';
  return (
    `Query large files in place without reading them whole: files under ${roots}${prefixes}. ` +
    'Start with file_stat or file_list, then file_grep and file_read (lines 1-based, inclusive).'
  );
}

function statTool(targets: FileTargets) {
  return artifactTool({
    name: 'file_stat',
    description: 'Bytes, lines and kind (text, json, jsonl, markdown, binary) of a file, as JSON.',
    inputSchema: strictToolInput({ path: pathArgument }),
    handler: async ({ path }, { signal }) =>
      targets.use(path, signal, async ({ artifact, kind }) => {
        const [bytes, lines] = await Promise.all([
          artifact.byteLength(),
          artifact.lineCount({ signal }),
        ]);
        return JSON.stringify({ bytes, lines, kind: kind.name });
      }),
  });
}

function listTool(targets: FileTargets, limits: ResultLimits) {
  return artifactTool({
    name: 'file_list',
    description:
      "A directory's entries with sizes (name/ for a directory); with no path, the roots and URL prefixes.",
    inputSchema: strictToolInput({
      path: z.string().nullish().describe('A directory under a root.'),
    }),
    handler: async ({ path }, { signal }) =>
      listDirectory({
        paths: targets.paths,
        urls: targets.urls,
        path: path ?? undefined,
        limits,
        signal,
      }),
  });
}
