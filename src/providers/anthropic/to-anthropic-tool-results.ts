import type Anthropic from '@anthropic-ai/sdk';
import type { Media } from '../../artifact/media.js';
import type { ContentPart, ToolCallOutcome } from '../../executor/tool-result-content.js';
import { formatBytes } from '../../shared/format-bytes.js';
import { mediaNote } from '../core/media-note.js';

/**
 * Options for {@link toAnthropicToolResults}.
 */
export interface AnthropicToolResultsOptions {
  /**
   * Images larger than this are replaced by a note instead of failing the whole request.
   * Default {@link defaultMaxImageBytes} (the Messages API's per-image limit).
   */
  maxImageBytes?: number;
}

/**
 * The largest image sent as an `image` block by default: the Messages API rejects base64
 * images over 5 MB.
 *
 * @example
 * ```ts
 * toAnthropicToolResults(outcomes, { maxImageBytes: defaultMaxImageBytes / 2 });
 * ```
 */
export const defaultMaxImageBytes = 5 * 1024 * 1024;

type ToolResultContent = Exclude<Anthropic.ToolResultBlockParam['content'], string | undefined>;
type ToolResultPart = ToolResultContent[number];
type ImageMediaType = Anthropic.Base64ImageSource['media_type'];

const imageMediaTypes: ReadonlySet<string> = new Set<ImageMediaType>([
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
]);

/**
 * Outcomes as `tool_result` blocks for the next `user` message: one per call, `tool_use_id` set,
 * text parts as `text` blocks, images (JPEG, PNG, GIF, WebP) as `image` blocks and PDFs as
 * `document` blocks with a base64 `source` — never base64 inside text — and `is_error: true`
 * for calls that failed (bad arguments, unknown tool, a handler that threw), so the model can
 * read what was wrong and try again. Media Anthropic cannot take natively become a short note.
 *
 * @example
 * ```ts
 * const outcomes = await session.run(fromAnthropicContent(message.content), dispatch);
 * messages.push({ role: 'assistant', content: message.content });
 * messages.push({ role: 'user', content: toAnthropicToolResults(outcomes) });
 * ```
 */
export function toAnthropicToolResults(
  outcomes: readonly ToolCallOutcome[],
  options: AnthropicToolResultsOptions = {},
): Anthropic.ToolResultBlockParam[] {
  const maxImageBytes = options.maxImageBytes ?? defaultMaxImageBytes;
  return outcomes.map((outcome) => {
    const content = outcome.content.flatMap((part) => toPart(part, maxImageBytes));
    return {
      type: 'tool_result',
      tool_use_id: outcome.call.id,
      // The API rejects empty text blocks; a call with no output sends no content at all.
      ...(content.length > 0 ? { content } : {}),
      ...(outcome.isError ? { is_error: true } : {}),
    };
  });
}

function toPart(part: ContentPart, maxImageBytes: number): ToolResultPart[] {
  if (part.type === 'text') return part.text === '' ? [] : [{ type: 'text', text: part.text }];
  const { media } = part;
  if (imageMediaTypes.has(media.mediaType)) {
    if (media.byteLength > maxImageBytes) {
      return [note(media, `is larger than the ${formatBytes(maxImageBytes)} image limit`)];
    }
    const mediaType = media.mediaType as ImageMediaType;
    return [
      { type: 'image', source: { type: 'base64', media_type: mediaType, data: media.toBase64() } },
    ];
  }
  if (media.mediaType === 'application/pdf') {
    return [
      {
        type: 'document',
        source: { type: 'base64', media_type: 'application/pdf', data: media.toBase64() },
        ...(media.name ? { title: media.name } : {}),
      },
    ];
  }
  return [note(media, 'is not an image or PDF the Messages API accepts')];
}

/** Tells the model a media result exists but was left out, and why. */
function note(media: Media, reason: string): Anthropic.TextBlockParam {
  return { type: 'text', text: mediaNote(media, reason) };
}
