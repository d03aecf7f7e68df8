import type { ToolOutputFileContent, ToolOutputImage, ToolOutputText } from '@openai/agents';
import type { Media } from '../../artifact/media.js';
import type { ContentPart, ToolCallOutcome } from '../../executor/tool-result-content.js';
import { contentText } from '../../executor/tool-result-content.js';
import { mediaFileName } from '../openai/media-data-url.js';

/**
 * What a spoolforge function tool's `invoke` returns to the Agents SDK: the text the model
 * reads (inline text, the handle of a spooled output, an artifact tool's bounded answer, or the
 * error of a failed call), or, when the call returned media, that text followed by native
 * image / file outputs the SDK sends as `input_image` / `input_file` parts.
 *
 * @example
 * ```ts
 * const result: SpoolforgeFunctionOutput = 'Output of run_tests (call_1) was spooled, not inlined: …';
 * ```
 */
export type SpoolforgeFunctionOutput =
  | string
  | (ToolOutputText | ToolOutputImage | ToolOutputFileContent)[];

/**
 * An outcome as a function tool's result. A failed call (bad arguments, an unknown `callId`, a
 * handler that threw) is its error text, `Error (CODE): …`, returned rather than thrown: the SDK
 * sends it as the call's output and the run goes on, without the SDK's own error wording.
 *
 * @example
 * ```ts
 * const [outcome] = await session.run([request], dispatch);
 * return toSpoolforgeFunctionOutput(outcome!);
 * ```
 */
export function toSpoolforgeFunctionOutput(outcome: ToolCallOutcome): SpoolforgeFunctionOutput {
  const { content, call } = outcome;
  if (!content.some((part) => part.type === 'media')) return contentText(content);
  return content.map((part) => toOutput(part, call.id));
}

function toOutput(
  part: ContentPart,
  callId: string,
): ToolOutputText | ToolOutputImage | ToolOutputFileContent {
  if (part.type === 'text') return { type: 'text', text: part.text };
  return toMediaOutput(part.media, callId);
}

/** The bytes go as they are; the SDK makes the data URL the request carries. */
function toMediaOutput(media: Media, callId: string): ToolOutputImage | ToolOutputFileContent {
  const data = media.bytes as Uint8Array<ArrayBuffer>;
  const { mediaType } = media;
  return media.isImage()
    ? { type: 'image', image: { data, mediaType } }
    : { type: 'file', file: { data, mediaType, filename: mediaFileName(media, callId) } };
}
