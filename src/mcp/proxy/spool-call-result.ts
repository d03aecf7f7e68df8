import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ArtifactKinds } from '../../artifact/kinds/artifact-kinds.js';
import { defaultArtifactKinds } from '../../artifact/kinds/built-in-kinds.js';
import { renderHandle } from '../../executor/render-handle.js';
import { SpoolforgeError } from '../../shared/spoolforge-error.js';
import type { ArtifactStore } from '../../store/artifact-store.js';
import type { SpilledValue, SpilledValues } from '../upstream/spilled-values.js';
import { artifactUri } from './artifact-uri.js';

/** What {@link spoolCallResult} needs besides the result. */
export interface SpoolCallResultOptions {
  /** The upstream tool that answered: the handle and `artifact_list` name it. */
  toolName: string;
  store: ArtifactStore;
  /** Results whose text, embedded text and structured content pass this many bytes are spooled. */
  threshold: number;
  /** Recorded in the artifact's metadata: whose outputs `artifact_list` lists. */
  scope: string;
  ttl?: number;
  kinds?: ArtifactKinds;
  /** The values the upstream transport diverted from this result, if it diverts any. */
  spilled?: SpilledValues;
  signal?: AbortSignal;
}

type Part = CallToolResult['content'][number];
type Piece = string | AsyncIterable<Uint8Array>;

/**
 * A `tools/call` result as the client gets it: unchanged when its text, embedded text resources
 * and structured content come to at most `threshold` bytes; else those go into the store as one
 * artifact (the structured content alone when there is some: by the MCP spec the text then
 * repeats it as JSON) and the client gets the handle, a `resource_link` to the artifact and the
 * result's other parts (images, audio, links, binary resources) as they were. An `isError`
 * result keeps its flag either way: a failing build's huge log is still worth a grep.
 */
export async function spoolCallResult(
  result: CallToolResult,
  options: SpoolCallResultOptions,
): Promise<CallToolResult> {
  const parts = result.content ?? [];
  const structured = result.structuredContent;
  // The result's diverted values are ours from here: each is stored or released.
  const owned = new Map<string, SpilledValue>();
  const own = (value: unknown) => {
    const taken = options.spilled?.isToken(value) ? options.spilled.take(value) : undefined;
    if (taken) owned.set(value as string, taken);
  };
  const texts = parts.flatMap((part) => {
    const text = textOf(part);
    return text === undefined ? [] : [text];
  });
  const structuredToken = options.spilled?.markerToken(structured);
  for (const value of [...texts, structuredToken]) own(value);
  try {
    const bytes = (text: string) => owned.get(text)?.byteLength ?? Buffer.byteLength(text);
    const total = texts.reduce(
      (sum, text) => sum + bytes(text),
      structured === undefined
        ? 0
        : (owned.get(structuredToken as string)?.byteLength ??
            Buffer.byteLength(JSON.stringify(structured))),
    );
    if (total <= options.threshold) return owned.size ? await materialize(result, owned) : result;
    return await spoolParts(result, texts, total, owned, options);
  } finally {
    await Promise.all([...owned.values()].map((value) => value.release()));
  }
}

async function spoolParts(
  result: CallToolResult,
  texts: readonly string[],
  total: number,
  owned: ReadonlyMap<string, SpilledValue>,
  options: SpoolCallResultOptions,
): Promise<CallToolResult> {
  const parts = result.content ?? [];
  const structured = result.structuredContent;
  const piece = (text: string): Piece => owned.get(text)?.stream() ?? text;
  let pieces: Piece[];
  let mediaType: string | undefined;
  if (structured !== undefined) {
    const token = options.spilled?.markerToken(structured);
    const value = token === undefined ? undefined : owned.get(token);
    pieces = [value?.stream() ?? JSON.stringify(structured, null, 2)];
    mediaType = 'application/json';
  } else {
    pieces = texts.map(piece);
    const [only] = parts;
    if (parts.length === 1 && only?.type === 'resource') mediaType = only.resource.mimeType;
  }
  const rest = parts.filter((part) => textOf(part) === undefined);
  const put = await options.store
    .put(joined(pieces), {
      ...(mediaType === undefined ? {} : { mediaType }),
      ...(options.ttl === undefined ? {} : { ttl: options.ttl }),
      ...(options.kinds ? { kinds: options.kinds } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      metadata: { scope: options.scope, tool: options.toolName },
    })
    .catch((error: unknown) => {
      throw new SpoolforgeError(
        'E_TOOL_FAILED',
        `The result of ${options.toolName} (${total} bytes) could not be spooled: ${(error as Error).message}`,
        { cause: error },
      );
    });
  const artifact = await options.store.get(put.id, options.kinds ? { kinds: options.kinds } : {});
  try {
    const handle = await renderHandle({ id: put.id, name: options.toolName }, artifact, {
      ...(options.kinds ? { kinds: options.kinds } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const link: Part = {
      type: 'resource_link',
      uri: artifactUri(put.id),
      name: `${options.toolName} output ${put.id}`,
      mimeType:
        put.mediaType ??
        (options.kinds ?? defaultArtifactKinds).get(put.kind)?.mediaType ??
        'text/plain',
      size: put.byteLength,
      description: 'The spooled output; reading it gives its first lines, bounded.',
    };
    return {
      content: [{ type: 'text', text: handle }, link, ...rest],
      ...(result.isError ? { isError: true } : {}),
      ...(result._meta ? { _meta: result._meta } : {}),
    };
  } finally {
    await artifact.close();
  }
}

/** The text a part carries that counts toward the threshold and goes into the artifact. */
function textOf(part: Part): string | undefined {
  if (part.type === 'text') return part.text;
  if (part.type === 'resource' && 'text' in part.resource) return part.resource.text;
  return undefined;
}

/** A result under the threshold whose values were diverted anyway, with them back in place. */
async function materialize(
  result: CallToolResult,
  owned: ReadonlyMap<string, SpilledValue>,
): Promise<CallToolResult> {
  const text = async (value: string) => {
    const spilledValue = owned.get(value);
    if (!spilledValue) return value;
    const chunks: Uint8Array[] = [];
    for await (const chunk of spilledValue.stream()) chunks.push(chunk);
    return Buffer.concat(chunks).toString('utf8');
  };
  const content = await Promise.all(
    (result.content ?? []).map(async (part) => {
      if (part.type === 'text') return { ...part, text: await text(part.text) };
      if (part.type === 'resource' && 'text' in part.resource)
        return { ...part, resource: { ...part.resource, text: await text(part.resource.text) } };
      return part;
    }),
  );
  const token = [...owned.keys()].find((key) =>
    Object.values(result.structuredContent ?? {}).includes(key),
  );
  const structured =
    token === undefined ? {} : { structuredContent: JSON.parse(await text(token)) };
  return { ...result, content, ...structured };
}

/** The pieces as one source, a newline between two. */
async function* joined(pieces: readonly Piece[]): AsyncIterable<Uint8Array | string> {
  for (const [index, piece] of pieces.entries()) {
    if (index > 0) yield '\n';
    if (typeof piece === 'string') yield piece;
    else yield* piece;
  }
}
