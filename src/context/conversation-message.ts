/**
 * A tool call an assistant message asked for, provider-neutral.
 *
 * @example
 * ```ts
 * const call: ConversationToolCall = { id: 'call_1', name: 'run_build', arguments: '{"target":"all"}' };
 * ```
 */
export interface ConversationToolCall {
  id: string;
  name: string;
  /** The arguments as the model sent them: JSON text. */
  arguments: string;
}

/**
 * One message of a conversation, provider-neutral: what the log records and the projection
 * renders; provider adapters convert it to and from their own shapes. The system prompt is not
 * a message: it is passed alongside, so compaction never summarises it away.
 *
 * A `tool` message's `content` is what the model is shown (a small inline result or an
 * artifact's handle); `ref` names the full output in an `ArtifactStore`, never a copy of it. A
 * user or assistant message too long to keep inline (a pasted log) is recorded the same way:
 * its first part with a note, and `ref`.
 *
 * @example
 * ```ts
 * const messages: ConversationMessage[] = [
 *   { role: 'user', content: 'Why did the build fail?' },
 *   { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'run_build', arguments: '{}' }] },
 *   { role: 'tool', toolCallId: 'call_1', toolName: 'run_build', content: 'exit 2', ref: 'a1b2c3' },
 * ];
 * ```
 */
export type ConversationMessage =
  | {
      role: 'user';
      content: string;
      /** The id in the `ArtifactStore` of the full text, when it was too long to keep inline. */
      ref?: string;
    }
  | {
      role: 'assistant';
      content: string;
      toolCalls?: ConversationToolCall[];
      /** The id in the `ArtifactStore` of the full text, when it was too long to keep inline. */
      ref?: string;
    }
  | {
      role: 'tool';
      toolCallId: string;
      toolName: string;
      content: string;
      /** The id of the full output in the `ArtifactStore`, when it was stored. */
      ref?: string;
      isError?: boolean;
    };

/**
 * What a compaction left in place of the history before it: text the summariser was told to
 * keep verbatim (`retain`), its summary, and the sequence number of the first event kept as is.
 *
 * @example
 * ```ts
 * const record: CompactionRecord = { retain: 'Build id 4812', summary: 'The linker failed…', keptFrom: 41 };
 * ```
 */
export interface CompactionRecord {
  retain: string;
  summary: string;
  /** Events with this sequence number or later stay in the history as they are. */
  keptFrom: number;
}

/**
 * One entry of a conversation log: a message, or a compaction. `seq` counts from 0 in append
 * order; `time` is epoch milliseconds.
 *
 * @example
 * ```ts
 * const event: ConversationEvent = { type: 'message', seq: 0, time: Date.now(), message: { role: 'user', content: 'hi' } };
 * ```
 */
export type ConversationEvent =
  | { type: 'message'; seq: number; time: number; message: ConversationMessage }
  | { type: 'compaction'; seq: number; time: number; compaction: CompactionRecord };

/**
 * Summarises a history formatted for it (the last message is the instruction) and returns the
 * model's reply text. Called without tools. The ready ones come with the OpenAI and Anthropic
 * adapters; any function will do.
 *
 * @example
 * ```ts
 * const summarise: Summariser = async (messages, { signal }) => callMyModel(messages, { signal });
 * ```
 */
export type Summariser = (
  messages: ConversationMessage[],
  options: { signal?: AbortSignal },
) => Promise<string>;
