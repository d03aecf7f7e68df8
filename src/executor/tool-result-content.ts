import type { Media } from '../artifact/media.js';
import type { SpooledArtifact } from '../artifact/spooled-artifact.js';
import type { ToolCall } from '../tools/tool-call.js';

/**
 * What the executor makes of a handler's return: text it inlined, a `SpooledArtifact` (or a
 * subclass) it spooled, or a `Media`. A call made by an artifact tool holds its text.
 *
 * @example
 * ```ts
 * const artifacts = session.toolCalls
 *   .map((call) => call.results)
 *   .filter((results) => results instanceof SpooledArtifact); // SpooledArtifact[]
 * ```
 */
export type ToolCallResults = string | SpooledArtifact | Media;

/**
 * A part of what a model is shown for a tool call: text, or a native media block.
 */
export type ContentPart = { type: 'text'; text: string } | { type: 'media'; media: Media };

/**
 * A finished call and what the model is shown for it, ready for a provider adapter to render.
 *
 * @example
 * ```ts
 * for (const { call, content, isError } of outcomes) console.log(call.id, isError, content);
 * ```
 */
export interface ToolCallOutcome {
  call: ToolCall<ToolCallResults>;
  content: ContentPart[];
  /** The model is told the call failed (bad arguments, unknown tool, handler error). */
  isError: boolean;
  /** How long the call took, arguments to rendered result. */
  durationMs: number;
  /** The result's id in the session's `ArtifactStore`, when it was stored there. */
  ref?: string;
}

/**
 * The text parts of an outcome joined: what a text-only channel (a Chat Completions `tool`
 * message) carries.
 *
 * @example
 * ```ts
 * const text = contentText(outcome.content);
 * ```
 */
export function contentText(content: readonly ContentPart[]): string {
  return content
    .filter((part): part is { type: 'text'; text: string } => part.type === 'text')
    .map((part) => part.text)
    .join('\n');
}
