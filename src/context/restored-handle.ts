import { continueWith } from '../artifact/forge/model-lines.js';
import type { ConversationMessage } from './conversation-message.js';

type ToolMessage = Extract<ConversationMessage, { role: 'tool' }>;

/** The handle's line naming the `artifact_*` tools and the call id to pass them. */
const queryLine = /^Query it with .*\(callId "(.*)"\).*$/m;

/**
 * A tool message recorded by an earlier process, as a new one can use it. Its handle named the
 * `artifact_*` tools and its call id, which only the session that ran the call offers; the
 * line now names the `tool_output_cache` calls that read the stored output by `ref` (or says
 * the output was not stored). Any other message comes back as it is.
 *
 * @example
 * ```ts
 * const message = restoredHandle(event.message);
 * // '… Query it with tool_output_cache {"ref":"a1b2"} or tool_output_cache_grep {"ref":"a1b2"} …'
 * ```
 */
export function restoredHandle(message: ConversationMessage): ConversationMessage {
  if (message.role !== 'tool' || !namesArtifactTools(message)) return message;
  return { ...message, content: message.content.replace(queryLine, () => queryBy(message)) };
}

function queryBy({ ref, toolCallId }: ToolMessage): string {
  const restart = `it was recorded before a restart, and no artifact_* tool offers call ${toolCallId} now`;
  if (ref === undefined)
    return `Only this preview is left: ${restart} and the output was not stored.`;
  return (
    `Query it with ${continueWith('tool_output_cache', { ref })} (start, end or last) or ` +
    `${continueWith('tool_output_cache_grep', { ref })} (pattern, …): ${restart}.`
  );
}

/**
 * Whether a tool message is a handle naming the `artifact_*` tools and its own call id: the
 * output can be offered again by a session holding that call.
 *
 * @example
 * ```ts
 * if (message.role === 'tool' && namesArtifactTools(message)) console.log(message.toolCallId);
 * ```
 */
export function namesArtifactTools(message: ToolMessage): boolean {
  return queryLine.exec(message.content)?.[1] === message.toolCallId;
}
