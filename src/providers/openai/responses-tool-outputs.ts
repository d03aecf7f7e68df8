import type {
  ResponseFunctionCallOutputItem,
  ResponseInputItem,
} from 'openai/resources/responses/responses';
import type { Media } from '../../artifact/media.js';
import type { ContentPart, ToolCallOutcome } from '../../executor/tool-result-content.js';
import { contentText } from '../../executor/tool-result-content.js';
import { mediaFileName, toDataUrl } from './media-data-url.js';

/**
 * A `function_call_output` input item.
 */
export type ResponsesFunctionCallOutput = ResponseInputItem.FunctionCallOutput;

/**
 * One `function_call_output` item per outcome, in order, `call_id` set. Text-only results are a
 * plain string `output`; a result with media is an array of `input_text` and `input_image`
 * (images) or `input_file` (PDFs and other files) parts, the base64 only in their data URLs.
 *
 * @example
 * ```ts
 * input.push(...response.output.filter((item) => item.type === 'function_call'));
 * const outcomes = await session.run(fromResponsesOutput(response.output), dispatch);
 * input.push(...toResponsesToolOutputs(outcomes));
 * ```
 */
export function toResponsesToolOutputs(
  outcomes: readonly ToolCallOutcome[],
): ResponsesFunctionCallOutput[] {
  return outcomes.map(({ call, content }) => ({
    type: 'function_call_output',
    call_id: call.id,
    output: content.some((part) => part.type === 'media')
      ? toOutputParts(content, call.id)
      : contentText(content),
  }));
}

function toOutputParts(
  content: readonly ContentPart[],
  callId: string,
): ResponseFunctionCallOutputItem[] {
  return content.map((part) =>
    part.type === 'text'
      ? { type: 'input_text', text: part.text }
      : toMediaPart(part.media, callId),
  );
}

function toMediaPart(media: Media, callId: string): ResponseFunctionCallOutputItem {
  return media.isImage()
    ? { type: 'input_image', image_url: toDataUrl(media), detail: 'auto' }
    : { type: 'input_file', file_data: toDataUrl(media), filename: mediaFileName(media, callId) };
}
