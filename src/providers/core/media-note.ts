import type { Media } from '../../artifact/media.js';
import { formatBytes } from '../../shared/format-bytes.js';

/**
 * What a model is told in place of a media result its API cannot take natively: that it exists,
 * its type, name and size, and why it was left out, so the model can say so or ask for another
 * form instead of believing the tool returned nothing.
 *
 * @example
 * ```ts
 * mediaNote(media, 'is not an image or PDF the Messages API accepts');
 * // '[audio/wav "alarm.wav" (1.2 MiB) not attached: it is not an image or PDF the Messages API accepts]'
 * ```
 */
export function mediaNote(media: Media, reason: string): string {
  const name = media.name ? ` "${media.name}"` : '';
  return `[${media.mediaType}${name} (${formatBytes(media.byteLength)}) not attached: it ${reason}]`;
}
