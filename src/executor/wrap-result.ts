import type { ArtifactKinds } from '../artifact/kinds/artifact-kinds.js';
import { Media } from '../artifact/media.js';
import { checkOutputName } from '../artifact/output-name.js';
import { type SpoolOptions, type SpoolSource, spool } from '../artifact/spool.js';
import { SpooledArtifact } from '../artifact/spooled-artifact.js';
import type { ArtifactStore } from '../store/artifact-store.js';
import type { PutOptions } from '../store/artifact-store-types.js';
import type { Tool } from '../tools/tool.js';
import { storeMedia } from './store-media.js';

/**
 * Options for {@link wrapResult}.
 */
export interface WrapOptions {
  /** Results of at most this many bytes stay inline text. Default 2 KiB. */
  inlineThreshold?: number;
  /** Where spooled bytes go. */
  spool?: Omit<SpoolOptions, 'signal' | 'kind' | 'kinds'>;
  /**
   * The kinds a result may be: the tool's declared `kind`, else the one its `mediaType` means,
   * else the one its first bytes show, decides the artifact's class (and, in a `ToolSession`,
   * the tools forged for it). Default `defaultArtifactKinds`, or `store`'s kinds when there is
   * a store.
   */
  kinds?: ArtifactKinds;
  /**
   * Spool large results into this store instead of a temp file: they outlive the process, and
   * a conversation log can refer to them by id.
   */
  store?: ArtifactStore;
  /** How results are put into `store` (a TTL, metadata, a name). */
  storeOptions?: Pick<PutOptions, 'ttl' | 'metadata' | 'name'>;
  signal?: AbortSignal;
}

/**
 * What {@link wrapValue} made of a return value, and the store id when it was stored.
 *
 * @example
 * ```ts
 * const { results, ref } = await wrapValue(tool, value, { store });
 * ```
 */
export interface WrappedValue {
  results: string | SpooledArtifact | Media;
  /** The artifact's id in `options.store`. */
  ref?: string;
}

/**
 * Bytes under which a result stays inline: a handle costs a few hundred tokens, so a result
 * smaller than that is cheaper inline.
 *
 * @example
 * ```ts
 * const session = new ToolSession({ tools, inlineThreshold: defaultInlineThreshold * 2 });
 * ```
 */
export const defaultInlineThreshold = 2 * 1024;

/**
 * What a tool's return value becomes: inline text when small, a spooled artifact of the class
 * of its kind (`tool.kind`, else the one its media type or first bytes call for) when large (streams are spooled as they arrive, never gathered first), or the `Media` itself (put into `options.store`
 * too, when there is one, under its media type and name), or a `SpooledArtifact` the tool
 * spooled itself.
 *
 * @example
 * ```ts
 * const results = await wrapResult(tool, await tool.handler(input, context), { inlineThreshold: 4096 });
 * ```
 */
export async function wrapResult(
  tool: Pick<Tool, 'kind' | 'mediaType'>,
  value: unknown,
  options: WrapOptions = {},
): Promise<string | SpooledArtifact | Media> {
  return (await wrapValue(tool, value, options)).results;
}

/**
 * {@link wrapResult}, also naming the store id of a result spooled into `options.store`.
 *
 * @example
 * ```ts
 * const { results, ref } = await wrapValue(tool, value, { store, storeOptions: { ttl: 86_400_000 } });
 * ```
 */
export async function wrapValue(
  tool: Pick<Tool, 'kind' | 'mediaType'>,
  value: unknown,
  options: WrapOptions = {},
): Promise<WrappedValue> {
  // An artifact the tool spooled itself (named, of a kind) is the result as it is; its name,
  // given by code (`new SpooledArtifact`, `fromFile` check none), is a callId the model reads.
  if (value instanceof SpooledArtifact) {
    try {
      checkOutputName(value.name, 'E_INVALID_ARGUMENT');
    } catch (error) {
      await value.close(); // the session's to close, as a kept result would be
      throw error;
    }
    return { results: value };
  }
  if (Media.isInstance(value)) {
    if (!options.store) return { results: value };
    // Kept like a spooled output: it outlives the session, and a log can refer to it.
    const ref = await storeMedia(value, options.store, {
      ...options.storeOptions,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return { results: value, ref };
  }
  const threshold = options.inlineThreshold ?? defaultInlineThreshold;
  const source = toSource(value);
  if (typeof source === 'string' && Buffer.byteLength(source) <= threshold) {
    return { results: source };
  }
  if (source instanceof Uint8Array && source.length <= threshold) {
    return { results: Buffer.from(source).toString('utf8') };
  }
  const { artifact, ref } = options.store
    ? await storeSource(tool, source, options.store, options)
    : { artifact: await spoolSource(tool, source, options), ref: undefined };
  if ((await artifact.byteLength()) > threshold) {
    return { results: artifact, ...(ref === undefined ? {} : { ref }) };
  }
  // A stream that turned out small: inline, like a small string, and not kept.
  const text = await artifact.asString();
  await artifact.close();
  if (ref !== undefined) await options.store?.delete(ref);
  return { results: text };
}

function spoolSource(
  tool: Pick<Tool, 'kind' | 'mediaType'>,
  source: SpoolSource,
  options: WrapOptions,
): Promise<SpooledArtifact> {
  return spool(source, {
    ...options.spool,
    ...declaredKind(tool, options),
    ...(options.signal ? { signal: options.signal } : {}),
  });
}

async function storeSource(
  tool: Pick<Tool, 'kind' | 'mediaType'>,
  source: SpoolSource,
  store: ArtifactStore,
  options: WrapOptions,
): Promise<{ artifact: SpooledArtifact; ref: string }> {
  const signal = options.signal ? { signal: options.signal } : {};
  const kinds = options.kinds ? { kinds: options.kinds } : {};
  const record = await store.put(source, {
    ...options.storeOptions,
    ...declaredKind(tool, options),
    ...signal,
  });
  const artifact = await store
    .get(record.id, { ...signal, ...kinds })
    .catch(async (error: unknown) => {
      await store.delete(record.id).catch(() => undefined);
      throw error;
    });
  return { artifact, ref: record.id };
}

/** What the tool declares of its results, and the kinds to read it in. */
function declaredKind(tool: Pick<Tool, 'kind' | 'mediaType'>, options: WrapOptions) {
  return {
    ...(tool.kind === undefined ? {} : { kind: tool.kind }),
    ...(tool.mediaType ? { mediaType: tool.mediaType } : {}),
    ...(options.kinds ? { kinds: options.kinds } : {}),
  };
}

function toSource(value: unknown): SpoolSource {
  if (typeof value === 'string' || value instanceof Uint8Array) return value;
  if (value === undefined || value === null) return '';
  if (typeof value === 'object' && Symbol.asyncIterator in value)
    return value as AsyncIterable<Uint8Array | string>;
  // Plain values are shown as JSON, indented so line queries have lines to work with.
  return JSON.stringify(value, null, 2) ?? String(value);
}
