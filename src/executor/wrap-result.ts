import type { ArtifactClassChooser } from '../artifact/artifact-class-for-kind.js';
import { Media } from '../artifact/media.js';
import { type SpoolOptions, type SpoolSource, spool } from '../artifact/spool.js';
import type { SpooledArtifact } from '../artifact/spooled-artifact.js';
import type { Tool } from '../tools/tool.js';

/**
 * Options for {@link wrapResult}.
 *
 * @example
 * ```ts
 * const options: WrapOptions = { inlineThreshold: 4096, spool: { memoryThreshold: 8 << 20 } };
 * ```
 */
export interface WrapOptions {
  /** Results of at most this many bytes stay inline text. Default 2 KiB. */
  inlineThreshold?: number;
  /** Where spooled bytes go. */
  spool?: Omit<SpoolOptions, 'signal' | 'artifactClass' | 'artifactClassFor'>;
  /**
   * The class for a tool without an `artifactConstructor`, from its declared `mediaType` or
   * else the sniffed first bytes. Default: JSON/JSONL → `SpooledJsonArtifact`, Markdown →
   * `SpooledMarkdownArtifact`, else `SpooledArtifact`; `() => SpooledArtifact` turns it off.
   */
  artifactClassFor?: ArtifactClassChooser;
  signal?: AbortSignal;
}

/** A handle costs a few hundred tokens; a result smaller than that is cheaper inline. */
export const defaultInlineThreshold = 2 * 1024;

/**
 * What a tool's return value becomes: inline text when small, a spooled artifact of
 * `tool.artifactConstructor?.()` (else the class its media type or first bytes call for) when large (streams are spooled as they
 * arrive, never gathered first), or the `Media` itself.
 *
 * @example
 * ```ts
 * const results = await wrapResult(tool, await tool.handler(input, context), { inlineThreshold: 4096 });
 * ```
 */
export async function wrapResult(
  tool: Pick<Tool, 'artifactConstructor' | 'mediaType'>,
  value: unknown,
  options: WrapOptions = {},
): Promise<string | SpooledArtifact | Media> {
  if (Media.isInstance(value)) return value;
  const threshold = options.inlineThreshold ?? defaultInlineThreshold;
  const source = toSource(value);
  if (typeof source === 'string' && Buffer.byteLength(source) <= threshold) return source;
  if (source instanceof Uint8Array && source.length <= threshold)
    return Buffer.from(source).toString('utf8');
  const artifactClass = (tool.artifactConstructor?.() ?? 'detect') as typeof SpooledArtifact;
  const artifact = await spool(source, {
    ...options.spool,
    artifactClass,
    ...(tool.mediaType ? { mediaType: tool.mediaType } : {}),
    ...(options.artifactClassFor ? { artifactClassFor: options.artifactClassFor } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if ((await artifact.byteLength()) > threshold) return artifact;
  const text = await artifact.asString();
  await artifact.close();
  return text;
}

function toSource(value: unknown): SpoolSource {
  if (typeof value === 'string' || value instanceof Uint8Array) return value;
  if (value === undefined || value === null) return '';
  if (typeof value === 'object' && Symbol.asyncIterator in value)
    return value as AsyncIterable<Uint8Array | string>;
  // Plain values are shown as JSON, indented so line queries have lines to work with.
  return JSON.stringify(value, null, 2) ?? String(value);
}
