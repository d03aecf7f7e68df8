import type { Media } from '../artifact/media.js';
import { isOutputName } from '../artifact/output-name.js';
import type { ArtifactStore } from '../store/artifact-store.js';
import type { PutOptions } from '../store/artifact-store-types.js';

/**
 * Puts an image or document into `store` the way outputs are kept: under its media type and
 * name, so it outlives the session and the viewer shows it. Resolves to its id. A name that is
 * no output's name (a file's base name of 101 characters or more, or with a control
 * character) is a label the store does not keep, rather than a reason to fail.
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
    ...(media.name !== undefined && isOutputName(media.name) ? { name: media.name } : {}),
  });
  return record.id;
}
