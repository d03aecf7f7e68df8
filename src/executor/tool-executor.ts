import { z } from 'zod';
import { DerivedOutput } from '../artifact/derived-output.js';
import { Media } from '../artifact/media.js';
import { checkOutputName } from '../artifact/output-name.js';
import { containsReference } from '../artifact/references/artifact-reference.js';
import {
  type ReferenceScope,
  resolveArtifactReferences,
} from '../artifact/references/resolve-references.js';
import { SpooledArtifact } from '../artifact/spooled-artifact.js';
import { errorResultText } from '../shared/error-result-text.js';
import { SpoolforgeError } from '../shared/spoolforge-error.js';
import { isArtifactTool } from '../tools/artifact-tool.js';
import type { DispatchContext } from '../tools/dispatch-context.js';
import type { Tool } from '../tools/tool.js';
import { ToolCall } from '../tools/tool-call.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import { hasUiParts, type ToolUiPartsInit } from '../tools/ui-parts.js';
import { callsReferenceScope } from './calls-reference-scope.js';
import { type HandleOptions, renderHandle } from './render-handle.js';
import { resolveUiParts } from './resolve-ui-parts.js';
import { startToolEvent } from './start-tool-event.js';
import { defaultMaxPartialOutputBytes, tapToolOutput } from './tap-tool-output.js';
import { emitToolEvent, type ToolEventListener } from './tool-event.js';
import {
  type ContentPart,
  contentText,
  type ToolCallOutcome,
  type ToolCallResults,
} from './tool-result-content.js';
import { type WrapOptions, wrapValue } from './wrap-result.js';

/**
 * A call as a provider reports it: the id, the tool's name, and the arguments (a JSON string
 * or already parsed).
 */
export interface ToolCallRequest {
  id: string;
  /** The tool's name, as on the {@link ToolCall} the executor makes of the request. */
  name: string;
  arguments: unknown;
}

/**
 * Options for running calls.
 */
export interface ExecuteOptions extends Omit<WrapOptions, 'signal'> {
  handle?: Omit<HandleOptions, 'signal'>;
  /**
   * UTF-8 bytes the values references put into one call's arguments may take in all (an
   * `artifactArgument()` takes an artifact of any size). Default 1 MiB
   * (`defaultMaxReferenceBytes`).
   */
  maxReferenceBytes?: number;
  /** The outputs references may name. Default: the spooled outputs of the dispatch's calls. */
  references?: ReferenceScope;
  /**
   * Gets each call's tool events (`start`, `progress`, `output`, `complete`) as they happen, for
   * a UI; what it gets never reaches the model. A `ToolEventQueue`'s `push` turns them into an
   * async iterable for `uiToolEvents` and `streamToolEvents`.
   */
  onEvent?: ToolEventListener;
  /** Bytes of a streamed result sent as `output` events, per call. Default 16 KiB. */
  maxPartialOutputBytes?: number;
  signal?: AbortSignal;
}

/**
 * Runs one call against `tools` and renders what the model is shown. References to spooled
 * outputs (`{"$artifact": "call_1", …}`) anywhere in the arguments are resolved first, then the
 * arguments are validated. Nothing a model sends can crash the loop: an unknown tool, arguments
 * that are not JSON or fail the schema (an unknown `callId`, a negative range), a reference that
 * cannot be resolved (`E_BAD_REFERENCE`; the tool is not called), or a handler that throws all
 * become error results that say what was wrong.
 *
 * @example
 * ```ts
 * const outcome = await executeToolCall(request, tools, dispatch, { signal });
 * if (outcome.isError) console.warn(outcome.call.error?.code);
 * ```
 */
export async function executeToolCall(
  request: ToolCallRequest,
  tools: ToolRegistry,
  dispatch: DispatchContext,
  options: ExecuteOptions = {},
): Promise<ToolCallOutcome> {
  const started = performance.now();
  const tool = tools.get(request.name);
  const parsed = parseArguments(request.arguments);
  const call = new ToolCall<ToolCallResults>({
    id: request.id,
    name: request.name,
    arguments: parsed.value,
    fromArtifactTool: tool !== undefined && isArtifactTool(tool),
  });
  const listener = options.onEvent;
  if (listener !== undefined) emitToolEvent(listener, startToolEvent(request, call.arguments));
  let content: ContentPart[];
  let ref: string | undefined;
  const created: SpooledArtifact[] = [];
  let uiParts: ToolUiPartsInit | undefined;
  let summary: string | undefined;
  try {
    if (!tool) {
      const names = tools.list().map((known) => known.name);
      throw new SpoolforgeError(
        'E_UNKNOWN_TOOL',
        `No tool named '${request.name}'. Tools: ${names.join(', ')}`,
      );
    }
    if (parsed.error) throw parsed.error;
    const signal = options.signal ?? new AbortController().signal;
    // Without a reference the handler starts in this turn of the event loop, as it always did.
    const resolved = containsReference(call.arguments)
      ? await resolveArtifactReferences(call.arguments, {
          scope: options.references ?? callsReferenceScope(dispatch.turnToolCalls),
          schema: tool.inputSchema,
          signal,
          ...(options.maxReferenceBytes === undefined
            ? {}
            : { maxReferenceBytes: options.maxReferenceBytes }),
        })
      : { value: call.arguments, created: [] };
    created.push(...resolved.created);
    const input = validate(tool, resolved.value);
    // Checked before the tool runs: the name comes of the model's arguments.
    const name = checkOutputName(tool.outputName?.(input), 'E_INVALID_TOOL_ARGS');
    const progress = (update: { message?: string; bytes?: number }) =>
      emitToolEvent(listener, { ...update, type: 'progress', toolCallId: call.id });
    let value = await runHandler(tool, input, { signal, toolCallId: call.id, dispatch, progress });
    if (hasUiParts(value)) ({ value, parts: uiParts } = value);
    if (listener !== undefined && isStream(value)) {
      const maxBytes = options.maxPartialOutputBytes ?? defaultMaxPartialOutputBytes;
      value = tapToolOutput(value, { toolCallId: call.id, listener, maxBytes });
    }
    // A stored result says which call made it.
    const metadata = {
      toolCallId: call.id,
      toolName: call.name,
      ...options.storeOptions?.metadata,
    };
    const storeOptions = { ...options.storeOptions, metadata };
    if (DerivedOutput.isInstance(value)) {
      // A new output an artifact tool made: always kept (the model asked for it), named as asked.
      const named = value.name === undefined ? {} : { name: value.name };
      ({ results: call.results, ref } = await wrapValue({ kind: value.kind }, value.bytes, {
        ...options,
        inlineThreshold: -1,
        spool: { ...options.spool, ...named },
        storeOptions: { ...storeOptions, ...named },
        signal,
      }));
      summary = value.summary;
    } else if (call.fromArtifactTool) {
      // An artifact tool's answer is text, or media it read back (tool_output_cache of an image).
      call.results = Media.isInstance(value) ? value : String(value);
    } else {
      const named = name === undefined ? {} : { name };
      ({ results: call.results, ref } = await wrapValue(tool, value, {
        ...options,
        spool: { ...options.spool, ...named },
        storeOptions: { ...storeOptions, ...named },
        signal,
      }));
    }
    content = await render(call, options);
    const [handle] = content;
    if (summary && handle?.type === 'text')
      content[0] = { type: 'text', text: `${summary}\n${handle.text}` };
  } catch (error) {
    call.error = SpoolforgeError.isInstance(error)
      ? error
      : new SpoolforgeError('E_TOOL_FAILED', String((error as Error)?.message ?? error), {
          cause: error,
        });
    content = [{ type: 'text', text: errorResultText(call.error) }];
  } finally {
    // Selections spooled for artifact arguments live for the call only.
    await Promise.all(created.map((artifact) => artifact.close()));
  }
  const durationMs = performance.now() - started;
  const byteLength = await resultBytes(call.results);
  call.ui = await resolveUiParts(uiParts, {
    durationMs,
    ...(byteLength === undefined ? {} : { byteLength }),
  });
  emitToolEvent(listener, {
    type: 'complete',
    toolCallId: call.id,
    toolName: call.name,
    result: call.results ?? contentText(content),
    ...(ref === undefined ? {} : { ref }),
    ...(call.error === undefined
      ? {}
      : { isError: true, error: { code: call.error.code, message: call.error.message } }),
    ui: call.ui,
  });
  return {
    call,
    content,
    isError: call.error !== undefined,
    durationMs,
    ...(ref === undefined ? {} : { ref }),
  };
}

/** A result that arrives over time: tapped for `output` and `progress` events. */
function isStream(value: unknown): value is AsyncIterable<Uint8Array | string> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

/** The size of what the executor kept of a result; none for a failed call. */
async function resultBytes(results: ToolCallResults | undefined): Promise<number | undefined> {
  if (results === undefined) return undefined;
  if (typeof results === 'string') return Buffer.byteLength(results);
  if (results instanceof SpooledArtifact) return results.byteLength();
  return results.byteLength;
}

/** JSON text parsed; text that is not JSON stays as it was sent, its error beside it. */
function parseArguments(raw: unknown): { value: unknown; error?: SpoolforgeError } {
  if (typeof raw !== 'string') return { value: raw ?? {} };
  if (raw.trim() === '') return { value: {} };
  try {
    return { value: JSON.parse(raw) };
  } catch (error) {
    const message = `The arguments are not valid JSON: ${(error as Error).message}`;
    return {
      value: raw,
      error: new SpoolforgeError('E_INVALID_TOOL_ARGS', message, { cause: error }),
    };
  }
}

function validate(tool: Tool<unknown>, input: unknown): unknown {
  const parsed = tool.inputSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  // OpenAI strict mode sends null for every optional field it leaves out.
  if (typeof input === 'object' && input !== null && !Array.isArray(input)) {
    const withoutNulls = Object.fromEntries(
      Object.entries(input).filter(([, value]) => value !== null),
    );
    const retried = tool.inputSchema.safeParse(withoutNulls);
    if (retried.success) return retried.data;
  }
  throw new SpoolforgeError(
    'E_INVALID_TOOL_ARGS',
    `Invalid arguments for ${tool.name}:\n${z.prettifyError(parsed.error)}`,
    { cause: parsed.error },
  );
}

async function runHandler(
  tool: Tool<unknown>,
  input: unknown,
  context: Parameters<Tool['handler']>[1],
) {
  try {
    return await tool.handler(input, context);
  } catch (error) {
    if (SpoolforgeError.isInstance(error)) throw error;
    throw new SpoolforgeError(
      'E_TOOL_FAILED',
      `${tool.name} failed: ${(error as Error)?.message ?? error}`,
      {
        cause: error,
      },
    );
  }
}

async function render(
  call: ToolCall<ToolCallResults>,
  options: ExecuteOptions,
): Promise<ContentPart[]> {
  const results = call.results;
  if (results instanceof SpooledArtifact) {
    const handle = {
      ...options.handle,
      ...(options.kinds ? { kinds: options.kinds } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    };
    return [{ type: 'text', text: await renderHandle(call, results, handle) }];
  }
  if (Media.isInstance(results)) {
    const name = results.name ? ` "${results.name}"` : '';
    return [
      {
        type: 'text',
        text: `${call.name} returned ${results.mediaType}${name} (${results.byteLength} bytes).`,
      },
      { type: 'media', media: results },
    ];
  }
  // Providers reject empty text blocks, and a model reads "(no output)" better than nothing.
  return [{ type: 'text', text: String(results) || '(no output)' }];
}
