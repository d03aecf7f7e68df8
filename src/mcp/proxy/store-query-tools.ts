import type { CallToolResult, Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { listToolName, strictToolInput } from '../../artifact/forge/forge-tools.js';
import type { ResultLimits } from '../../artifact/forge/model-lines.js';
import type { ToolMethodDescriptor } from '../../artifact/forge/tool-method-descriptor.js';
import type { ArtifactKinds } from '../../artifact/kinds/artifact-kinds.js';
import { defaultArtifactKinds } from '../../artifact/kinds/built-in-kinds.js';
import type { SpooledArtifact } from '../../artifact/spooled-artifact.js';
import { executeToolCall } from '../../executor/tool-executor.js';
import { contentText } from '../../executor/tool-result-content.js';
import { formatBytes } from '../../shared/format-bytes.js';
import { quoteInput } from '../../shared/quote-input.js';
import { SpoolforgeError } from '../../shared/spoolforge-error.js';
import type { ArtifactStore } from '../../store/artifact-store.js';
import type { StoredArtifactRecord } from '../../store/artifact-store-types.js';
import { artifactTool } from '../../tools/artifact-tool.js';
import { DispatchContext } from '../../tools/dispatch-context.js';
import type { Tool } from '../../tools/tool.js';
import { ToolRegistry } from '../../tools/tool-registry.js';
import { readOnlyMcpTool } from '../read-only-mcp-tool.js';
import { OpenArtifacts } from './open-artifacts.js';

/** Options for {@link StoreQueryTools}. */
export interface StoreQueryToolsOptions {
  store: ArtifactStore;
  /** The outputs `artifact_list` lists and an unknown id's error names: those put with this `scope` in their metadata. */
  scope: string;
  /** The kinds whose queries are offered. Default `defaultArtifactKinds`. */
  kinds?: ArtifactKinds;
  limits?: ResultLimits;
}

/** The most characters of an error result. */
const maxErrorChars = 2_000;

/** How many ids an unknown `callId`'s error names. */
const namedIds = 10;

const callIdSchema = z
  .string()
  .describe('The id its handle names (callId "…"); see artifact_list.');

/**
 * The compact query tools (`artifact_read`, `artifact_grep`, `artifact_list`, `artifact_json`,
 * `artifact_md`) over the outputs an MCP proxy spooled into a store. MCP clients cache
 * `tools/list`, so `callId` is a string checked when called, not an enum: an id the store does
 * not hold is an error result naming the ids that can be queried. Every result is bounded by
 * `limits`, numbered from 1, and says how to continue where it was cut.
 */
export class StoreQueryTools {
  /** The tools as `tools/list` declares them. */
  readonly definitions: McpTool[];
  readonly #registry: ToolRegistry;
  readonly #options: StoreQueryToolsOptions;
  readonly #kinds: ArtifactKinds;
  readonly #open: OpenArtifacts;

  constructor(options: StoreQueryToolsOptions) {
    this.#options = options;
    this.#kinds = options.kinds ?? defaultArtifactKinds;
    this.#open = new OpenArtifacts(options.store);
    const tools: Tool[] = [];
    for (const kind of this.#kinds.list()) {
      for (const method of kind.toolMethods) {
        if (!tools.some((tool) => tool.name === method.name)) tools.push(this.#methodTool(method));
      }
      if (!tools.some((tool) => tool.name === listToolName)) tools.push(this.#listTool());
    }
    this.#registry = new ToolRegistry(tools);
    this.definitions = tools.map(readOnlyMcpTool);
  }

  /** True for the name of one of these tools. */
  has(name: string): boolean {
    return this.#registry.has(name);
  }

  /** Runs one call; a model's mistake is an `isError` result that says what was wrong. */
  async call(name: string, args: unknown, signal: AbortSignal): Promise<CallToolResult> {
    const outcome = await executeToolCall(
      { id: name, name, arguments: args ?? {} },
      this.#registry,
      new DispatchContext({}),
      { signal },
    );
    const text = contentText(outcome.content);
    // An error may quote what the model sent (a 1 MB pattern that does not compile): cut it.
    return outcome.isError
      ? { content: [{ type: 'text', text: quoteInput(text, maxErrorChars) }], isError: true }
      : { content: [{ type: 'text', text }] };
  }

  /** Closes the artifacts kept open between queries. */
  close(): Promise<void> {
    return this.#open.close();
  }

  #methodTool(method: ToolMethodDescriptor<SpooledArtifact>) {
    const limits = this.#options.limits ?? {};
    return artifactTool({
      name: method.name,
      description: method.description,
      inputSchema: strictToolInput({ callId: callIdSchema, ...method.args }),
      handler: async (input: { callId: string }, { signal }) => {
        const { callId, ...args } = input;
        await this.#checkId(callId);
        return this.#open.use(callId, async (artifact) => {
          const offered = this.#kinds.toolMethodsOf(artifact);
          if (!offered.some((each) => each.name === method.name)) {
            throw new SpoolforgeError(
              'E_INVALID_TOOL_ARGS',
              `${method.name} does not query ${callId}: it is ${artifact.kind}; query it with ` +
                offered.map((each) => each.name).join(', '),
            );
          }
          return method.run(artifact, args as never, { callId, limits, signal });
        });
      },
    });
  }

  #listTool() {
    return artifactTool({
      name: listToolName,
      description:
        'Lists the spooled outputs, newest first: id, tool, kind, bytes, lines, created.',
      inputSchema: strictToolInput({}),
      handler: async () => {
        const records = await this.#records();
        if (records.length === 0)
          throw new SpoolforgeError('E_INVALID_TOOL_ARGS', 'Nothing is spooled');
        const budget = this.#options.limits?.maxResultBytes ?? 50 * 1024;
        const rows: string[] = [];
        let bytes = 0;
        for (const record of records) {
          const row = listRow(record);
          bytes += Buffer.byteLength(row) + 1;
          if (bytes > budget - 200) {
            rows.push(`[cut: ${records.length - rows.length} older outputs not shown]`);
            break;
          }
          rows.push(row);
        }
        return rows.join('\n');
      },
    });
  }

  /** This scope's live outputs, newest first. */
  async #records(): Promise<StoredArtifactRecord[]> {
    const all = await this.#options.store.list();
    return all.filter((record) => record.metadata.scope === this.#options.scope);
  }

  async #checkId(callId: string): Promise<void> {
    // Only ids: a name would reach the newest output so named, which no handle ever gave.
    const record = await this.#options.store.info(callId).catch(() => undefined);
    if (record?.id === callId) return;
    const records = await this.#records();
    const ids = records.slice(0, namedIds).map((each) => `"${each.id}" (${describe(each)})`);
    const more =
      records.length > namedIds ? `, and ${records.length - namedIds} older (artifact_list)` : '';
    throw new SpoolforgeError(
      'E_INVALID_TOOL_ARGS',
      `No spooled output "${quoteInput(callId)}" (it may have expired). ` +
        (ids.length ? `callId may be ${ids.join(', ')}${more}` : 'Nothing is spooled.'),
    );
  }
}

function describe(record: StoredArtifactRecord): string {
  return `${String(record.metadata.tool ?? 'output')}, ${record.kind}, ${formatBytes(record.byteLength)}`;
}

function listRow(record: StoredArtifactRecord): string {
  const tokens =
    record.metadata.tokens === undefined ? '' : ` tokens=${String(record.metadata.tokens)} (o200k)`;
  return (
    `${record.id} tool=${String(record.metadata.tool ?? '?')} kind=${record.kind} ` +
    `bytes=${record.byteLength} (${formatBytes(record.byteLength)}) lines=${record.lineCount}${tokens} ` +
    `created=${new Date(record.createdAt).toISOString()}`
  );
}
