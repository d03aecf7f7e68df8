import type {
  ChatCompletionContentPart,
  ChatCompletionToolMessageParam,
  ChatCompletionUserMessageParam,
} from 'openai/resources/chat/completions';
import type { Media } from '../../artifact/media.js';
import type { ToolCallOutcome } from '../../executor/tool-result-content.js';
import { type ContentPart, contentText } from '../../executor/tool-result-content.js';
import { describeMedia, mediaFileName, toDataUrl } from './media-data-url.js';

/**
 * The messages that answer an assistant message's tool calls: one `role: "tool"` message per
 * outcome (in order, `tool_call_id` set), then, if any call returned media, one `role: "user"`
 * message carrying it. Tool messages take text only, and every tool message must directly
 * follow the assistant message, so images (`image_url`) and other files such as PDFs (`file`)
 * come after all of them, each labelled with its call id; their base64 sits in the data URL,
 * never in text.
 *
 * @example
 * ```ts
 * messages.push(message);
 * const outcomes = await session.run(fromChatCompletionsToolCalls(message.tool_calls), dispatch);
 * messages.push(...toChatCompletionsToolMessages(outcomes));
 * ```
 */
export function toChatCompletionsToolMessages(
  outcomes: readonly ToolCallOutcome[],
): (ChatCompletionToolMessageParam | ChatCompletionUserMessageParam)[] {
  const toolMessages: ChatCompletionToolMessageParam[] = [];
  const mediaParts: ChatCompletionContentPart[] = [];
  for (const { call, content } of outcomes) {
    const media = mediaOf(content);
    const note = media.length > 0 ? '\n(Attached in the next user message.)' : '';
    toolMessages.push({
      role: 'tool',
      tool_call_id: call.id,
      content: contentText(content) + note,
    });
    for (const item of media) mediaParts.push(...toMediaParts(item, call.id));
  }
  if (mediaParts.length === 0) return toolMessages;
  return [...toolMessages, { role: 'user', content: mediaParts }];
}

function mediaOf(content: readonly ContentPart[]): Media[] {
  return content.flatMap((part) => (part.type === 'media' ? [part.media] : []));
}

function toMediaParts(media: Media, callId: string): ChatCompletionContentPart[] {
  const label: ChatCompletionContentPart = {
    type: 'text',
    text: `Tool output: ${describeMedia(media, callId)}.`,
  };
  const block: ChatCompletionContentPart = media.isImage()
    ? { type: 'image_url', image_url: { url: toDataUrl(media) } }
    : {
        type: 'file',
        file: { file_data: toDataUrl(media), filename: mediaFileName(media, callId) },
      };
  return [label, block];
}
