import type { CompactionRecord, ConversationMessage } from './conversation-message.js';

/**
 * The user message that stands for a compacted past in the history: what the summariser was
 * told to keep verbatim, then its summary.
 *
 * @example
 * ```ts
 * const message = summaryMessage({ retain: 'Build 4812', summary: 'The linker failed.', keptFrom: 40 });
 * ```
 */
export function summaryMessage(
  record: Pick<CompactionRecord, 'retain' | 'summary'>,
): ConversationMessage {
  const retain = record.retain.trim() ? `<retain>\n${record.retain.trim()}\n</retain>\n` : '';
  return {
    role: 'user',
    content:
      'Summary of the conversation so far (earlier messages were compacted; their tool outputs ' +
      `stay queryable by ref):\n${retain}<summary>\n${record.summary.trim()}\n</summary>`,
  };
}
