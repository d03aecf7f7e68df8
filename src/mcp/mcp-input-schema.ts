import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { toJsonSchema } from '../providers/json-schema.js';

/**
 * A spoolforge tool's input schema as an MCP `tools/list` declares it: {@link toJsonSchema}
 * without the `null` its optional arguments accept. They are `.nullish()` for OpenAI's strict
 * mode, where every property is required and one left out comes as `null`; an MCP client
 * leaves it out instead, and MCP inspectors flag `["integer","null"]` as not portable. A `null`
 * sent anyway still passes the tool's zod schema when it is called.
 *
 * @example
 * ```ts
 * mcpInputSchema(z.object({ last: z.number().int().min(1).nullish() }));
 * // { type: 'object', properties: { last: { type: 'integer', minimum: 1 } } }
 * ```
 */
export function mcpInputSchema(schema: z.ZodType): McpTool['inputSchema'] {
  return withoutNull(toJsonSchema(schema)) as McpTool['inputSchema'];
}

function withoutNull(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutNull);
  if (typeof node !== 'object' || node === null) return node;
  const schema: Record<string, unknown> = Object.fromEntries(
    Object.entries(node).map(([key, value]) => [key, withoutNull(value)]),
  );
  const { type, anyOf } = schema;
  if (Array.isArray(type) && type.length > 1 && type.includes('null')) {
    const types = type.filter((each) => each !== 'null');
    schema.type = types.length === 1 ? types[0] : types;
  }
  if (Array.isArray(anyOf)) {
    const branches = anyOf.filter((branch) => !isNullType(branch));
    if (branches.length === 1 && branches.length < anyOf.length) {
      delete schema.anyOf;
      return { ...schema, ...(branches[0] as object) };
    }
    schema.anyOf = branches;
  }
  return schema;
}

/** `{"type":"null"}` alone. */
function isNullType(node: unknown): boolean {
  return (
    typeof node === 'object' &&
    node !== null &&
    (node as { type?: unknown }).type === 'null' &&
    Object.keys(node).length === 1
  );
}
