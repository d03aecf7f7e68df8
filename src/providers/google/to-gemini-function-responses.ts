import type { FunctionResponse, FunctionResponsePart, Part } from '@google/genai';
import type { Media } from '../../artifact/media.js';
import { contentText, type ToolCallOutcome } from '../../executor/tool-result-content.js';
import { SpoolforgeError } from '../../shared/spoolforge-error.js';
import { mediaNote } from '../core/media-note.js';
import type { GeminiCallRequest } from './from-gemini-calls.js';

/**
 * Where images and PDFs a tool returns go: `'function-response'` inside the
 * `functionResponse` as its `parts` (Gemini 3's multimodal function responses), or `'content'`
 * as `inlineData` parts after the function responses, in the same content (for models that
 * take media only as content parts).
 */
export type GeminiMediaPlacement = 'function-response' | 'content';

/**
 * Options for {@link toGeminiFunctionResponses}.
 */
export interface GeminiFunctionResponsesOptions {
  /**
   * The requests `fromGeminiCalls` made of the response: a call the model sent without an `id`
   * is answered without one. Without them, every answer carries its call's id.
   */
  requests?: readonly GeminiCallRequest[];
  /** Where media go. Default `'function-response'`. */
  media?: GeminiMediaPlacement;
}

/** The media types a function response takes inline (Gemini's documented list). */
const inlineMediaTypes: ReadonlySet<string> = new Set([
  'image/png',
  'image/jpeg',
  'image/webp',
  'application/pdf',
  'text/plain',
]);

/**
 * Outcomes as the parts of the `user` content that answers the calls: one `functionResponse`
 * per call, in call order, with the call's `name` (and `id` when the model sent one). Its
 * `response` is `{ output }` with the text the model is shown (a handle, or the inlined
 * result), or `{ error }` for a call that failed (bad arguments, unknown tool, a handler that
 * threw), Gemini's convention for a result the model reads as a failure and can recover from.
 * Images (PNG, JPEG, WebP) and PDFs go as `inlineData` with their media type, never base64
 * inside text; other media become a short note in the text.
 *
 * @example
 * ```ts
 * const requests = fromGeminiCalls(response, { turn });
 * const outcomes = await session.run(requests, dispatch);
 * contents.push(response.candidates![0]!.content!);
 * contents.push({ role: 'user', parts: toGeminiFunctionResponses(outcomes, { requests }) });
 * ```
 */
export function toGeminiFunctionResponses(
  outcomes: readonly ToolCallOutcome[],
  options: GeminiFunctionResponsesOptions = {},
): Part[] {
  const { requests, media: placement = 'function-response' } = options;
  // Another value would put the media nowhere (and leave no note of them in the text).
  if (placement !== 'function-response' && placement !== 'content') {
    throw new SpoolforgeError(
      'E_INVALID_ARGUMENT',
      `media must be 'function-response' or 'content', got ${JSON.stringify(placement)}`,
    );
  }
  const madeIds = new Set(
    (requests ?? []).filter((request) => !request.modelId).map((request) => request.id),
  );
  const after: Part[] = [];
  const parts = outcomes.map((outcome): Part => {
    const attached = outcome.content.flatMap((part) =>
      part.type === 'media' && inlineMediaTypes.has(part.media.mediaType) ? [part.media] : [],
    );
    const text = contentText(
      outcome.content.map((part) =>
        part.type === 'media' && !attached.includes(part.media)
          ? { type: 'text', text: mediaNote(part.media, 'is not a type Gemini takes inline') }
          : part,
      ),
    );
    const inline = attached.map(toInlineData);
    const functionResponse: FunctionResponse = {
      ...(madeIds.has(outcome.call.id) ? {} : { id: outcome.call.id }),
      name: outcome.call.name,
      response: outcome.isError ? { error: text } : { output: text },
      ...(placement === 'function-response' && inline.length > 0 ? { parts: inline } : {}),
    };
    if (placement === 'content') after.push(...inline);
    return { functionResponse };
  });
  return [...parts, ...after];
}

function toInlineData(media: Media): FunctionResponsePart & Part {
  return { inlineData: { mimeType: media.mediaType, data: media.toBase64() } };
}
