import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ArtifactKinds } from '../../artifact/kinds/artifact-kinds.js';
import { defaultArtifactKinds } from '../../artifact/kinds/built-in-kinds.js';
import { renderHandle } from '../../executor/render-handle.js';
import { SpoolforgeError } from '../../shared/spoolforge-error.js';
import type { ArtifactStore } from '../../store/artifact-store.js';
import type { SpilledValues } from '../upstream/spilled-values.js';
import { artifactUri } from './artifact-uri.js';
import { eachYielding } from './each-yielding.js';

/** What a {@link ResultSpooler} needs. */
export interface ResultSpoolerOptions {
  store: ArtifactStore;
  /** Results whose text, embedded text, resource links and structured content pass this many bytes are spooled. */
  threshold: number;
  /** Recorded in each artifact's metadata: whose outputs `artifact_list` lists. */
  scope: string;
  ttl?: number;
  kinds?: ArtifactKinds;
  /** The values the upstream transport diverted from its messages, if it diverts any. */
  spilled?: SpilledValues;
  /** Whether a spooled result carries a `resource_link` to its artifact (some clients reject one). */
  resourceLinks: boolean;
}

type Part = CallToolResult['content'][number];
type Piece = string | AsyncIterable<Uint8Array>;
/** One output to store: its pieces (joined with "\n") and what it is. */
interface Output {
  label: string;
  pieces: Piece[];
  mediaType?: string | undefined;
}

/**
 * Turns upstream results into what the client may receive: anything past the threshold goes
 * into the store and the client gets its handle instead. Values the upstream transport
 * diverted are either stored from their spools or put back; none is left behind.
 */
export class ResultSpooler {
  readonly #options: ResultSpoolerOptions;

  constructor(options: ResultSpoolerOptions) {
    this.#options = options;
  }

  /**
   * A `tools/call` result: unchanged when its text, embedded text resources, resource links and
   * structured content come to at most the threshold. Else its structured content, when the
   * text parts are only its JSON (as the MCP spec asks of tools with structured output), goes
   * into the store as one JSON artifact; otherwise the text parts (with a line per resource
   * link) and the structured content are each stored when past half the threshold, so what
   * stays inline is small. The client gets a handle (and, if enabled, a `resource_link`) per
   * stored output, and images, audio and binary resources as they were. An `isError` result
   * keeps its flag: a failing build's huge log is still worth a grep.
   */
  async callResult(
    result: CallToolResult,
    toolName: string,
    signal?: AbortSignal,
  ): Promise<CallToolResult> {
    const spilled = this.#options.spilled;
    const bytes = (text: string) => spilled?.peek(text)?.byteLength ?? Buffer.byteLength(text);
    const parts = result.content ?? [];
    const grouped: Part[] = [];
    const texts: string[] = [];
    let textBytes = 0;
    // A result of a million tiny parts must not hold up the other clients: one pass, yielding.
    await eachYielding(parts, (part) => {
      const text = lineOf(part);
      if (text === undefined) return;
      grouped.push(part);
      texts.push(text);
      textBytes += bytes(text);
    });
    const structured = result.structuredContent;
    const structuredToken = spilled?.markerToken(structured);
    const structuredBytes =
      structured === undefined
        ? 0
        : structuredToken !== undefined
          ? bytes(structuredToken)
          : Buffer.byteLength(JSON.stringify(structured));
    // Text that is JSON beside structured content is that content serialized again.
    const duplicate =
      structured !== undefined &&
      grouped.length > 0 &&
      (await Promise.all(texts.map((text) => this.#startsLikeJson(text)))).every(Boolean);
    const total = duplicate ? structuredBytes : textBytes + structuredBytes;
    if (total <= this.#options.threshold) return this.#resolve(result);

    const half = this.#options.threshold / 2;
    const storeStructured = structured !== undefined && (duplicate || structuredBytes > half);
    const storeTexts = !duplicate && textBytes > half;
    const outputs: Output[] = [];
    if (storeStructured) {
      outputs.push({
        label: toolName,
        pieces: [
          structuredToken !== undefined
            ? this.#take(structuredToken)
            : JSON.stringify(structured, null, 2),
        ],
        mediaType: 'application/json',
      });
    }
    if (storeTexts) {
      const [only] = parts;
      outputs.push({
        label: toolName,
        pieces: texts.map((text) => (spilled?.isToken(text) ? this.#take(text) : text)),
        mediaType:
          parts.length === 1 && only?.type === 'resource' ? only.resource.mimeType : undefined,
      });
    }
    const dropped = duplicate || storeTexts ? grouped : [];
    const droppedSet = new Set(dropped);
    const kept: Part[] = [];
    await eachYielding(parts, (part) => {
      if (!droppedSet.has(part)) kept.push(part);
    });
    try {
      const handles = (await this.#store(outputs, signal)).flat();
      const { structuredContent: _replaced, ...rest } = result;
      return await this.#resolve({
        ...rest,
        content: [...handles, ...kept],
        ...(storeStructured
          ? {}
          : structured === undefined
            ? {}
            : { structuredContent: structured }),
      });
    } finally {
      // Whatever was not stored or kept (the text a duplicate made redundant) is freed.
      await spilled?.releaseIn(dropped);
    }
  }

  /**
   * Any other forwarded result (`resources/read`, `prompts/get`): every text past the threshold
   * becomes the handle of a stored output, named by `label`; the rest comes back as it was.
   */
  async forwardedResult<Result>(
    result: Result,
    label: string,
    signal?: AbortSignal,
  ): Promise<Result> {
    const spilled = this.#options.spilled;
    const replace = async (node: unknown): Promise<unknown> => {
      if (Array.isArray(node)) return Promise.all(node.map(replace));
      if (typeof node !== 'object' || node === null) return node;
      const entries = await Promise.all(
        Object.entries(node).map(async ([key, value]): Promise<[string, unknown]> => {
          if (key !== 'text' || typeof value !== 'string') return [key, await replace(value)];
          const size = spilled?.peek(value)?.byteLength ?? Buffer.byteLength(value);
          if (size <= this.#options.threshold) return [key, value];
          const piece = spilled?.isToken(value) ? this.#take(value) : value;
          const [handle] = await this.#store([{ label, pieces: [piece] }], signal);
          return [key, handle?.[0]?.type === 'text' ? handle[0].text : ''];
        }),
      );
      return Object.fromEntries(entries);
    };
    return this.#resolve((await replace(result)) as Result);
  }

  /** Stores each output and renders its handle (and link). */
  async #store(outputs: readonly Output[], signal?: AbortSignal): Promise<Part[][]> {
    const options = this.#options;
    const kinds = options.kinds ?? defaultArtifactKinds;
    const handles: Part[][] = [];
    for (const output of outputs) {
      const record = await options.store
        .put(joined(output.pieces), {
          ...(output.mediaType === undefined ? {} : { mediaType: output.mediaType }),
          ...(options.ttl === undefined ? {} : { ttl: options.ttl }),
          ...(options.kinds ? { kinds: options.kinds } : {}),
          ...(signal ? { signal } : {}),
          metadata: { scope: options.scope, tool: output.label },
        })
        .catch((error: unknown) => {
          throw new SpoolforgeError(
            'E_TOOL_FAILED',
            `The result of ${output.label} could not be spooled: ${(error as Error).message}`,
            { cause: error },
          );
        });
      const artifact = await options.store.get(record.id, { kinds });
      try {
        const text = await renderHandle({ id: record.id, name: output.label }, artifact, {
          kinds,
          ...(signal ? { signal } : {}),
        });
        // Short: the handle beside it already says what it is and how to query it.
        const link: Part = {
          type: 'resource_link',
          uri: artifactUri(record.id),
          name: record.id,
          mimeType: record.mediaType ?? kinds.get(record.kind)?.mediaType ?? 'text/plain',
          size: record.byteLength,
        };
        handles.push([{ type: 'text', text }, ...(options.resourceLinks ? [link] : [])]);
      } finally {
        await artifact.close();
      }
    }
    return handles;
  }

  /** The message with every diverted value still in it put back (images, `_meta`…). */
  async #resolve<Message>(message: Message): Promise<Message> {
    return (await this.#options.spilled?.resolve(message)) ?? message;
  }

  /** A diverted value as a source that frees its spool once read (or abandoned). */
  #take(token: string): AsyncIterable<Uint8Array> {
    const value = this.#options.spilled?.take(token);
    if (!value) throw new SpoolforgeError('E_TOOL_FAILED', 'A diverted value was taken twice');
    return (async function* () {
      try {
        yield* value.stream();
      } finally {
        await value.release();
      }
    })();
  }

  async #startsLikeJson(text: string): Promise<boolean> {
    const value = this.#options.spilled?.peek(text);
    const head = value
      ? Buffer.from(await value.reader().read(0, Math.min(64, value.byteLength))).toString('utf8')
      : text.slice(0, 64);
    return /^\s*[[{]/.test(head);
  }
}

/** The text a part adds to the stored output, else `undefined` (images, audio, blobs). */
function lineOf(part: Part): string | undefined {
  if (part.type === 'text') return part.text;
  if (part.type === 'resource' && 'text' in part.resource) return part.resource.text;
  if (part.type === 'resource_link') {
    return `[resource ${part.uri}${part.name ? ` "${part.name}"` : ''}${part.mimeType ? ` (${part.mimeType})` : ''}]`;
  }
  return undefined;
}

/** Text gathered from small pieces before it goes to the store as one chunk. */
const chunkChars = 64 * 1024;

/**
 * The pieces as one source, a newline between two. Short texts go out gathered in chunks: a
 * store takes a chunk at a time, and 200,000 parts of a few bytes each would be 400,000 writes.
 */
async function* joined(pieces: readonly Piece[]): AsyncIterable<Uint8Array | string> {
  let pending = '';
  for (const [index, piece] of pieces.entries()) {
    if (index > 0) pending += '\n';
    if (typeof piece === 'string') pending += piece;
    else {
      if (pending) yield pending;
      pending = '';
      yield* piece;
    }
    if (pending.length >= chunkChars) {
      yield pending;
      pending = '';
    }
  }
  if (pending) yield pending;
}

/**
 * Whether a client gets a `resource_link` beside each handle: `setting`, or for `'auto'` a
 * client on MCP 2025-06-18 (which brought `resource_link`) or later. Claude Code 2.1, Codex CLI
 * 0.171 and Gemini CLI 0.61 all take one (Codex shows it to the model as its JSON).
 *
 * @example
 * ```ts
 * offersResourceLinks('auto', '2025-11-25'); // true
 * ```
 */
export function offersResourceLinks(
  setting: boolean | 'auto' | undefined,
  protocolVersion: string,
): boolean {
  if (setting !== undefined && setting !== 'auto') return setting;
  return protocolVersion >= '2025-06-18';
}
