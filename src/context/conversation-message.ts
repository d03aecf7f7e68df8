/**
 * A tool call an assistant message asked for, provider-neutral.
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
 */
export type ConversationEvent =
  | { type: 'message'; seq: number; time: number; message: ConversationMessage }
  | { type: 'compaction'; seq: number; time: number; compaction: CompactionRecord };

/**
 * Summarises a history formatted for it (the last message is the instruction) and returns the
 * model's reply text. Called without tools. The ready ones come with the OpenAI and Anthropic
 * adapters; any function will do.
 */
export type Summariser = (
  messages: ConversationMessage[],
  options: { signal?: AbortSignal },
) => Promise<string>;
