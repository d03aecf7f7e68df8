import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { Media } from '../artifact/media.js';
import { SpoolforgeError } from '../shared/spoolforge-error.js';
import type { Tool } from '../tools/tool.js';

/** Options for {@link mcpTools}. */
export interface McpToolsOptions {
  /** Prefixed to every tool name (e.g. `github_`), so two servers' tools do not collide. */
  prefix?: string;
  signal?: AbortSignal;
}

type ContentPart = CallToolResult['content'][number];

/**
 * An MCP client's tools (every page of `tools/list`) as spoolforge `Tool`s: the input schema is
 * the server's JSON Schema, and the handler calls the tool through `client` (an abort reaches the
 * server as `notifications/cancelled`). A result becomes `structuredContent` as JSON text, else
 * its text parts (and embedded text resources, and a line per resource link or non-text part)
 * joined with "\n"; a result of one image or audio part alone becomes a `Media`. An `isError`
 * result throws `E_TOOL_FAILED` with the server's text, which a session shows the model.
 *
 * @example
 * ```ts
 * const session = new ToolSession({ tools: await mcpTools(client) });
 * ```
 */
export async function mcpTools(client: Client, options: McpToolsOptions = {}): Promise<Tool[]> {
  const requestOptions = options.signal ? { signal: options.signal } : undefined;
  const tools: Tool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? {} : { cursor }, requestOptions);
    for (const tool of page.tools) tools.push(toTool(client, tool, options.prefix ?? ''));
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return tools;
}

function toTool(client: Client, tool: McpTool, prefix: string): Tool {
  return {
    name: `${prefix}${tool.name}`,
    description: tool.description ?? tool.title ?? tool.name,
    inputSchema: inputSchema(tool),
    // A tool that declares structured output returns JSON: spooled as a JSON artifact.
    ...(tool.outputSchema ? { mediaType: 'application/json' } : {}),
    async handler(input, { signal }) {
      const result = (await client.callTool(
        { name: tool.name, arguments: input as Record<string, unknown> },
        undefined,
        { signal },
      )) as CallToolResult;
      return resultValue(tool.name, result);
    },
  };
}

/**
 * The server's JSON Schema as zod, so arguments are checked before the call and the wire carries
 * the same schema; a schema zod cannot read is sent as any object and checked by the server.
 */
function inputSchema(tool: McpTool): z.ZodType {
  try {
    return z.fromJSONSchema(tool.inputSchema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch {
    return z.looseObject({});
  }
}

/** What a call result becomes: the value the executor inlines, spools or passes as media. */
function resultValue(name: string, result: CallToolResult): string | Media {
  const parts = result.content ?? [];
  if (result.isError) {
    throw new SpoolforgeError(
      'E_TOOL_FAILED',
      `MCP tool ${name} failed: ${parts.map(partText).join('\n') || 'no message'}`,
    );
  }
  if (result.structuredContent !== undefined) {
    return JSON.stringify(result.structuredContent, null, 2);
  }
  const [only] = parts;
  if (parts.length === 1 && only && (only.type === 'image' || only.type === 'audio')) {
    return new Media(Buffer.from(only.data, 'base64'), { mediaType: only.mimeType });
  }
  return parts.map(partText).join('\n');
}

function partText(part: ContentPart): string {
  switch (part.type) {
    case 'text':
      return part.text;
    case 'resource':
      return 'text' in part.resource
        ? part.resource.text
        : `[binary resource ${part.resource.uri} (${part.resource.mimeType ?? 'unknown type'})]`;
    case 'resource_link':
      return `[resource ${part.uri}${part.name ? ` "${part.name}"` : ''}${part.mimeType ? ` (${part.mimeType})` : ''}]`;
    default:
      // An image or audio part beside other content: named, since one result is one value.
      return `[${part.type} ${part.mimeType}, ${Buffer.byteLength(part.data, 'base64')} bytes]`;
  }
}
