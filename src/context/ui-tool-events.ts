import { Media } from '../artifact/media.js';
import { spool } from '../artifact/spool.js';
import { SpooledArtifact } from '../artifact/spooled-artifact.js';
import { storeMedia } from '../executor/store-media.js';
import type { ToolEvent } from '../executor/tool-event.js';
import type { LinkSigner } from '../serve/link-signer.js';
import { artifactPath } from '../serve/viewer-links.js';
import { SpoolforgeError, throwIfAborted } from '../shared/spoolforge-error.js';
import type { ArtifactStore } from '../store/artifact-store.js';

export type { ToolEvent } from '../executor/tool-event.js';

/**
 * A large result as a UI gets it: where it is, how big, and a preview of its first and last
 * lines (each cut to 200 characters).
 */
export interface ArtifactReference {
  /** The store id; absent when there was no store to put the result in. */
  ref?: string;
  byteLength: number;
  lineCount: number;
  kind: string;
  head: string[];
  tail: string[];
  /**
   * The viewer page of the artifact handler mounted at `baseUrl`, when both are known; signed
   * over the artifact (its viewer and body) when `signedLinks` is given.
   */
  url?: string;
}

/**
 * An image or document result as a UI gets it: where its bytes are (`url`, the handler's body
 * route, to use as an `<img src>`), never the bytes.
 */
export interface MediaReference {
  /** The store id; absent when there was no store to put the media in. */
  ref?: string;
  mediaType: string;
  name?: string;
  byteLength: number;
  /** The body of the artifact handler mounted at `baseUrl`, signed like {@link ArtifactReference.url}. */
  url?: string;
}

/** The fields a `complete` event keeps whatever its result becomes. */
type CompleteFields = Omit<Extract<ToolEvent, { type: 'complete' }>, 'result' | 'ref'>;

/**
 * A {@link ToolEvent} for a UI: a large result's `complete` carries an {@link ArtifactReference}
 * instead of the result; every other event is unchanged.
 *
 * @example
 * ```ts
 * for await (const event of uiToolEvents(events, { store })) socket.send(JSON.stringify(event));
 * ```
 */
export type UiToolEvent =
  | Exclude<ToolEvent, { type: 'complete' }>
  | (Extract<ToolEvent, { type: 'complete' }> & { result: string | Uint8Array })
  | (CompleteFields & { artifact: ArtifactReference })
  | (CompleteFields & { media: MediaReference });

/**
 * Options for {@link uiToolEvents}.
 */
export interface UiToolEventsOptions {
  /** Large text and byte results are put here, so the reference can link to them. */
  store?: ArtifactStore;
  /**
   * Where `createArtifactHandler(store)` is mounted, e.g. `https://agent.example/artifacts`; a
   * query or fragment is `E_INVALID_ARGUMENT`.
   */
  baseUrl?: string;
  /** Results up to this many bytes pass unchanged. Default 8 KiB. */
  maxInlineBytes?: number;
  /** Lines of preview at each end. Default 3. */
  previewLines?: number;
  /**
   * Sign each `url` with this signer (the one the handler's `signedLinks` verifies with), so a UI
   * can open that artifact and nothing else, for `expiresIn` milliseconds (default the signer's
   * ttl). `baseUrl`'s path must be the handler's base path as the handler sees it.
   */
  signedLinks?: { signer: LinkSigner; expiresIn?: number };
  signal?: AbortSignal;
}

const defaultMaxInlineBytes = 8 * 1024;
const previewLineChars = 200;

/**
 * Filters a stream of tool events for a UI: small results pass unchanged, a large one (an
 * artifact, or text past `maxInlineBytes`) becomes a reference with its size, line count, a
 * preview and a link to the artifact viewer, so a browser never receives a multi-GB body.
 * Large text goes into `store` to be linkable (unless its event names its `ref` there); an
 * artifact, whatever its size, becomes a reference, linked when its event names its `ref` (a
 * `ToolSession` with a `store` gives every outcome one), and is never copied. A `Media` result
 * (an image, a PDF) becomes a {@link MediaReference} linking to its bytes, put into `store` when
 * its event names no `ref`.
 *
 * @example
 * ```ts
 * const events = uiToolEvents(agentEvents, { store, baseUrl: 'http://localhost:3000/artifacts' });
 * for await (const event of events) sendToBrowser(event);
 * ```
 *
 * @example
 * ```ts
 * import { createLinkSigner, uiToolEvents } from 'spoolforge';
 *
 * // The signer of createArtifactHandler(store, { signedLinks: { signer } }):
 * const signer = createLinkSigner({ key: process.env.LINK_KEY ?? '' });
 * const events = uiToolEvents(agentEvents, {
 *   store,
 *   baseUrl: 'https://agent.example/artifacts',
 *   signedLinks: { signer, expiresIn: 15 * 60_000 },
 * });
 * ```
 */
export async function* uiToolEvents(
  events: AsyncIterable<ToolEvent>,
  options: UiToolEventsOptions = {},
): AsyncGenerator<UiToolEvent> {
  const maxInlineBytes = options.maxInlineBytes ?? defaultMaxInlineBytes;
  // A path appended after a query or fragment lands in it: every link, and the scope it is
  // signed over, would be the base itself (the handler's index).
  if (options.baseUrl !== undefined && /[?#]/.test(options.baseUrl)) {
    throw new SpoolforgeError(
      'E_INVALID_ARGUMENT',
      `baseUrl must be where the artifact handler is mounted, without a query or fragment: ${JSON.stringify(options.baseUrl)}`,
    );
  }
  for await (const event of events) {
    throwIfAborted(options.signal);
    if (event.type !== 'complete') {
      yield event;
      continue;
    }
    const { result, ref, ...rest } = event;
    if (Media.isInstance(result)) {
      yield { ...rest, media: await mediaReference(result, ref, options) };
      continue;
    }
    if (!(result instanceof SpooledArtifact) && byteLengthOf(result) <= maxInlineBytes) {
      yield event as UiToolEvent;
      continue;
    }
    yield { ...rest, artifact: await reference(result, ref, options) };
  }
}

function byteLengthOf(result: string | Uint8Array): number {
  return typeof result === 'string' ? Buffer.byteLength(result) : result.length;
}

async function reference(
  result: string | Uint8Array | SpooledArtifact,
  knownRef: string | undefined,
  options: UiToolEventsOptions,
): Promise<ArtifactReference> {
  const signal = options.signal ? { signal: options.signal } : {};
  let ref = knownRef;
  let artifact: SpooledArtifact;
  if (result instanceof SpooledArtifact) artifact = result;
  else if (options.store) {
    ref ??= (await options.store.put(result, signal)).id;
    artifact = await options.store.get(ref, signal);
  } else artifact = await spool(result, signal);
  try {
    const lines = options.previewLines ?? 3;
    const lineCount = await artifact.lineCount(signal);
    const cut = (line: { text: string }) =>
      line.text.length > previewLineChars ? `${line.text.slice(0, previewLineChars)}…` : line.text;
    const head = (await artifact.head(lines, signal)).map(cut);
    // The lines after the head, so the two never overlap.
    const tailLines = Math.min(lines, Math.max(0, lineCount - lines));
    const tail = tailLines > 0 ? (await artifact.tail(tailLines, signal)).map(cut) : [];
    const base = options.baseUrl?.replace(/\/+$/, '');
    return {
      ...(ref === undefined ? {} : { ref }),
      byteLength: await artifact.byteLength(),
      lineCount,
      kind: artifact.kind,
      head,
      tail,
      ...(ref !== undefined && base
        ? { url: routeUrl(base, ref, '/view', options.signedLinks) }
        : {}),
    };
  } finally {
    // Only what this filter opened: the caller's artifact stays open.
    if (artifact !== result) await artifact.close();
  }
}

/** Media into the store when it is not there yet, so its reference can link to its bytes. */
async function mediaReference(
  media: Media,
  knownRef: string | undefined,
  options: UiToolEventsOptions,
): Promise<MediaReference> {
  const ref =
    knownRef ??
    (options.store === undefined
      ? undefined
      : await storeMedia(media, options.store, options.signal ? { signal: options.signal } : {}));
  const base = options.baseUrl?.replace(/\/+$/, '');
  return {
    ...(ref === undefined ? {} : { ref }),
    mediaType: media.mediaType,
    ...(media.name === undefined ? {} : { name: media.name }),
    byteLength: media.byteLength,
    ...(ref !== undefined && base ? { url: routeUrl(base, ref, '', options.signedLinks) } : {}),
  };
}

/** A route of `ref` (`''` its body, `/view` its viewer), signed over the artifact when there is a signer. */
function routeUrl(
  base: string,
  ref: string,
  route: '' | '/view',
  signedLinks: UiToolEventsOptions['signedLinks'],
) {
  const artifact = artifactPath(base, ref);
  if (signedLinks === undefined) return `${artifact}${route}`;
  const { signer, expiresIn } = signedLinks;
  return signer.sign(`${artifact}${route}`, {
    scope: artifact,
    ...(expiresIn === undefined ? {} : { expiresIn }),
  });
}
