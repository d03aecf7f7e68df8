import type { Tool as GeminiTool, Part } from '@google/genai';
import type { ToolSession } from '../../executor/tool-session.js';
import type { ProviderDispatch } from '../core/provider-dispatch.js';
import {
  ProviderToolSession,
  type ProviderToolSessionOptions,
} from '../core/provider-tool-session.js';
import { fromGeminiCalls, type GeminiCallRequest, type GeminiCalls } from './from-gemini-calls.js';
import {
  type GeminiFunctionResponsesOptions,
  toGeminiFunctionResponses,
} from './to-gemini-function-responses.js';
import { type GeminiToolsOptions, toGeminiTools } from './to-gemini-tools.js';

/**
 * One `generateContent` request: the `tools` for its `config.tools`, `ack()` once its
 * response arrived (the forged tools are pruned), `nack(error)` if the request failed, and
 * `run` for the response (or its content): it runs the `functionCall` parts (concurrently)
 * and returns the `functionResponse` parts, in call order, for the next `user` content; `[]`
 * when the response asked for no calls.
 *
 * @example
 * ```ts
 * const dispatch = agent.dispatch();
 * const response = await dispatch.track(ai.models.generateContent({ model, contents, config: { tools: dispatch.tools } }));
 * const parts = await dispatch.run(response);
 * ```
 */
export type GoogleDispatch = ProviderDispatch<GeminiTool, GeminiCalls, Part>;

/**
 * Options for a {@link GoogleToolSession}: those of a new `ToolSession` (the adapter closes it)
 * or a `session` of yours (you close it), how parameters are declared (`schema`) and where media
 * go (`media`).
 */
export type GoogleToolSessionOptions = GeminiToolsOptions &
  Pick<GeminiFunctionResponsesOptions, 'media'> &
  ProviderToolSessionOptions;

/** Requests made per session, shared by every adapter on it, so made call ids never repeat. */
const turns = new WeakMap<ToolSession, number>();

/**
 * A {@link ToolSession} spoken in `@google/genai` shapes: a thin layer over `toGeminiTools`,
 * `fromGeminiCalls` and `toGeminiFunctionResponses`. Large tool outputs are spooled and the
 * model gets a handle plus forged query tools in the next request. A call without an `id` (Gemini
 * 2 models send none) gets `fc_TURN_N`, the `callId` the model names its output by. `close()`
 * closes the session if the adapter made it; a `session` you passed in is yours to close.
 *
 * @example
 * ```ts
 * await using agent = new GoogleToolSession({ tools: [fetchLog] });
 * const contents: Content[] = [{ role: 'user', parts: [{ text: 'Why did checkout fail?' }] }];
 * for (;;) {
 *   const dispatch = agent.dispatch();
 *   const response = await dispatch.track(ai.models.generateContent({ model, contents, config: { tools: dispatch.tools } }));
 *   const content = response.candidates?.[0]?.content;
 *   const parts = await dispatch.run(content);
 *   if (!content || parts.length === 0) break;
 *   contents.push(content, { role: 'user', parts });
 * }
 * ```
 */
export class GoogleToolSession extends ProviderToolSession {
  readonly #tools: GeminiToolsOptions;
  readonly #media: GeminiFunctionResponsesOptions['media'];

  constructor(options: GoogleToolSessionOptions = {}) {
    super(options);
    const { schema, media } = options;
    this.#tools = schema === undefined ? {} : { schema };
    this.#media = media;
    // Options are checked now, not at the first request or (media) after the calls ran.
    toGeminiTools([], this.#tools);
    toGeminiFunctionResponses([], media === undefined ? {} : { media });
  }

  /** Forges the tools for the next request and returns it as a {@link GoogleDispatch}. */
  dispatch(): GoogleDispatch {
    const turn = (turns.get(this.session) ?? 0) + 1;
    turns.set(this.session, turn);
    const requests: GeminiCallRequest[] = [];
    return this.dispatchAs({
      toTools: (tools) => toGeminiTools(tools, this.#tools),
      fromCalls: (calls) => {
        const made = fromGeminiCalls(calls, { turn });
        requests.push(...made);
        return made;
      },
      toResults: (outcomes) =>
        toGeminiFunctionResponses(outcomes, {
          requests,
          ...(this.#media === undefined ? {} : { media: this.#media }),
        }),
    });
  }
}
