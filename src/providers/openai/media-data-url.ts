import type { Media } from '../../artifact/media.js';

/**
 * `media` as a `data:` URL, the form both OpenAI APIs take for inline images (`image_url`) and
 * files (`file_data`). The base64 lives only in that field, never inside a text part.
 *
 * @example
 * ```ts
 * toDataUrl(chart); // 'data:image/png;base64,iVBORw0KGgo…'
 * ```
 */
export function toDataUrl(media: Media): string {
  return `data:${media.mediaType};base64,${media.toBase64()}`;
}

/**
 * A file name for a media block: the media's own name, else one made from the call id and the
 * media subtype (OpenAI wants a `filename` beside `file_data`).
 *
 * @example
 * ```ts
 * mediaFileName(report, 'call_1'); // 'report.pdf', or 'call_1.pdf' for an unnamed PDF
 * ```
 */
export function mediaFileName(media: Media, callId: string): string {
  if (media.name) return media.name;
  const subtype = media.mediaType.split('/')[1]?.split(/[+;]/)[0] ?? 'bin';
  return `${callId}.${subtype}`;
}

/**
 * How a text channel refers to a media block sent beside it: `image/png "chart.png" from call_1`.
 *
 * @example
 * ```ts
 * describeMedia(chart, 'call_1'); // 'image/png "chart.png" from call call_1'
 * ```
 */
export function describeMedia(media: Media, callId: string): string {
  const name = media.name ? ` "${media.name}"` : '';
  return `${media.mediaType}${name} from call ${callId}`;
}
