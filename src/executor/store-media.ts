import type { Media } from '../artifact/media.js';
import type { ArtifactStore } from '../store/artifact-store.js';
import type { PutOptions } from '../store/artifact-store-types.js';

/**
 * Puts an image or document into `store` the way outputs are kept: under its media type and
 * name, so it outlives the session and the viewer shows it. Resolves to its id.
 *
 * @example
 * ```ts
 * const ref = await storeMedia(await Media.fromFile('chart.png'), store, { ttl: 86_400_000 });
 * ```
 */
export async function storeMedia(
  media: Media,
  store: ArtifactStore,
  options: Pick<PutOptions, 'ttl' | 'metadata' | 'signal'> = {},
): Promise<string> {
  const record = await store.put(media.bytes, {
    ...options,
    mediaType: media.mediaType,
    ...(media.name === undefined ? {} : { name: media.name }),
  });
  return record.id;
}
