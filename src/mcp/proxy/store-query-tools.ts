import type { CallToolResult, Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { DerivedOutput } from '../../artifact/derived-output.js';
import { listToolName, strictToolInput } from '../../artifact/forge/forge-tools.js';
import type { ResultLimits } from '../../artifact/forge/model-lines.js';
import type { ToolMethodDescriptor } from '../../artifact/forge/tool-method-descriptor.js';
import type { ArtifactKinds } from '../../artifact/kinds/artifact-kinds.js';
import { defaultArtifactKinds } from '../../artifact/kinds/built-in-kinds.js';
import { referenceFormHelp } from '../../artifact/references/artifact-reference.js';
import type { ReferenceScope } from '../../artifact/references/resolve-references.js';
import type { SpooledArtifact } from '../../artifact/spooled-artifact.js';
import { renderHandle } from '../../executor/render-handle.js';
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
  /** How long a new output a query derives (`artifact_json` op `set`, …) is kept. Default: the store's. */
  ttl?: number;
}

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
    // An error's text is already cut (errorResultText): it may quote a 1 MB pattern.
    const content = [{ type: 'text' as const, text: contentText(outcome.content) }];
    return outcome.isError ? { content, isError: true } : { content };
  }

  /**
   * This scope's outputs as references may name them (by id, else the newest so named): only
   * those put with this `scope`, so one upstream's client never reaches another's outputs.
   */
  readonly references: ReferenceScope = {
    use: async (ref, read) => {
      const records = await this.#records();
      const record =
        records.find((each) => each.id === ref) ?? records.find((each) => each.name === ref);
      if (!record) throw unknownOutput('E_BAD_REFERENCE', ref, records, '$artifact');
      return this.#open.use(record.id, read);
    },
  };

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
        const { callId: given, ...args } = input;
        const callId = await this.#idOf(given);
        return this.#open.use(callId, async (artifact) => {
          const offered = this.#kinds.toolMethodsOf(artifact);
          if (!offered.some((each) => each.name === method.name)) {
            throw new SpoolforgeError(
              'E_INVALID_TOOL_ARGS',
              `${method.name} does not query ${callId}: it is ${artifact.kind}; query it with ` +
                offered.map((each) => each.name).join(', '),
            );
          }
          const derive = (output: DerivedOutput) => this.#keep(method.name, output, signal);
          return method.run(artifact, args as never, { callId, limits, signal, derive });
        });
      },
    });
  }

  /** A new output a query derived, put into the store in this scope; resolves to its handle. */
  async #keep(tool: string, output: DerivedOutput, signal: AbortSignal): Promise<string> {
    const { store, scope, ttl } = this.#options;
    const record = await store.put(output.bytes, {
      kind: output.kind,
      kinds: this.#kinds,
      signal,
      metadata: { scope, tool },
      ...(output.name === undefined ? {} : { name: output.name }),
      ...(ttl === undefined ? {} : { ttl }),
    });
    return this.#open.use(record.id, async (artifact) => {
      const handle = { kinds: this.#kinds, signal };
      return `${output.summary}\n${await renderHandle({ id: record.id, name: tool }, artifact, handle)}`;
    });
  }

  #listTool() {
    return artifactTool({
      name: listToolName,
      description: `Lists the spooled outputs, newest first. ${referenceFormHelp}`,
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

  /**
   * The id `callId` means: an output of this scope by that id (as handles give them), else the
   * newest one of this scope with that name; else an error naming the ids that can be queried.
   * Another upstream's output sharing the store is unknown here, as it is to references.
   */
  async #idOf(callId: string): Promise<string> {
    const record = await this.#options.store.info(callId).catch(() => undefined);
    if (record?.id === callId && record.metadata.scope === this.#options.scope) return callId;
    const records = await this.#records();
    const named = records.find((each) => each.name === callId);
    if (named) return named.id;
    throw unknownOutput('E_INVALID_TOOL_ARGS', callId, records, 'callId');
  }
}

/** An id or name that reaches no output of the scope: the error names the ones that do. */
function unknownOutput(
  code: 'E_INVALID_TOOL_ARGS' | 'E_BAD_REFERENCE',
  ref: string,
  records: readonly StoredArtifactRecord[],
  field: string,
): SpoolforgeError {
  const ids = records.slice(0, namedIds).map((each) => `"${each.id}" (${describe(each)})`);
  const more =
    records.length > namedIds ? `, and ${records.length - namedIds} older (artifact_list)` : '';
  return new SpoolforgeError(
    code,
    `No spooled output "${quoteInput(ref)}" (it may have expired). ` +
      (ids.length ? `${field} may be ${ids.join(', ')}${more}` : 'Nothing is spooled.'),
  );
}

function describe(record: StoredArtifactRecord): string {
  return `${String(record.metadata.tool ?? 'output')}, ${record.kind}, ${formatBytes(record.byteLength)}`;
}

function listRow(record: StoredArtifactRecord): string {
  const tokens =
    record.metadata.tokens === undefined ? '' : ` tokens=${String(record.metadata.tokens)} (o200k)`;
  return (
    `${record.id} tool=${String(record.metadata.tool ?? '?')}${record.name === undefined ? '' : ` name="${record.name}"`} kind=${record.kind} ` +
    `bytes=${record.byteLength} (${formatBytes(record.byteLength)}) lines=${record.lineCount}${tokens} ` +
    `created=${new Date(record.createdAt).toISOString()}`
  );
}
