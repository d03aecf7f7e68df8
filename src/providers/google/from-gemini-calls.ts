import type { Content, GenerateContentResponse, Part } from '@google/genai';
import type { ToolCallRequest } from '../../executor/tool-executor.js';

/**
 * What a `generateContent` response asked for: the response itself (its first candidate is
 * read), the candidate's `content` (as kept in the history), or its `parts`.
 */
export type GeminiCalls =
  | Pick<GenerateContentResponse, 'candidates'>
  | Content
  | readonly Part[]
  | undefined;

/**
 * A call as {@link fromGeminiCalls} reads it: a {@link ToolCallRequest} that remembers whether
 * its `id` is the model's own, so its answer carries that `id` back (and only then).
 */
export interface GeminiCallRequest extends ToolCallRequest {
  /** The model sent this id (Gemini 3 models do); otherwise it was made from the turn. */
  modelId: boolean;
}

/**
 * Options for {@link fromGeminiCalls}.
 */
export interface GeminiCallsOptions {
  /**
   * Which request of the conversation this response answers (any number that differs per
   * request): a call without an `id` of its own gets `fc_TURN_N`, N its position among the
   * response's calls. That id is the call's (and its spooled output's) `callId` for the model.
   */
  turn: number;
}

/**
 * The calls a `generateContent` response asks for: one {@link GeminiCallRequest} per
 * `functionCall` part, in order, with the call's `name` and `args`. Gemini 2 models send calls
 * without an `id`; each then gets a stable one made from `options.turn` and its position, which
 * the model sees in the handle and the forged tools' `callId` enum. Text and thought parts are
 * not calls and are skipped; a response without calls yields `[]`.
 *
 * @example
 * ```ts
 * const response = await ai.models.generateContent({ model, contents, config: { tools } });
 * const requests = fromGeminiCalls(response, { turn: 3 }); // ids: the model's, else fc_3_0, fc_3_1…
 * const outcomes = await session.run(requests, dispatch);
 * ```
 */
export function fromGeminiCalls(
  calls: GeminiCalls,
  options: GeminiCallsOptions,
): GeminiCallRequest[] {
  return partsOf(calls)
    .flatMap((part) => (part.functionCall ? [part.functionCall] : []))
    .map((call, index) => ({
      id: call.id ?? `fc_${options.turn}_${index}`,
      name: call.name ?? '',
      arguments: call.args ?? {},
      modelId: call.id !== undefined,
    }));
}

function partsOf(calls: GeminiCalls): readonly Part[] {
  if (calls === undefined) return [];
  if (Array.isArray(calls)) return calls;
  if ('candidates' in calls) return calls.candidates?.[0]?.content?.parts ?? [];
  return (calls as Content).parts ?? [];
}
