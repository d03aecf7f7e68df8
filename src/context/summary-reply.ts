import { SpoolforgeError } from '../shared/spoolforge-error.js';
import type { ConversationMessage } from './conversation-message.js';

/**
 * What a summariser's reply yields: the facts to keep verbatim and the summary.
 */
export interface ConversationSummary {
  retain: string;
  summary: string;
}

/**
 * The `<retain>` and `<summary>` sections of a summariser's reply, trimmed. A reply without a
 * complete, non-empty `<summary>…</summary>` (a refusal, one cut off by the output token limit,
 * an empty one that would make the whole history vanish) is not a summary to replace history
 * with; a missing `<retain>` is an empty one.
 *
 * @throws SpoolforgeError `E_COMPACTION_FAILED` when the reply is not text or has no
 *   non-empty `<summary>…</summary>`.
 * @example
 * ```ts
 * parseSummaryReply('<retain>id 4812</retain>\n<summary>The linker failed.</summary>');
 * // { retain: 'id 4812', summary: 'The linker failed.' }
 * ```
 */
export function parseSummaryReply(text: string): ConversationSummary {
  if (typeof text !== 'string') {
    throw new SpoolforgeError(
      'E_COMPACTION_FAILED',
      `The summariser resolved ${text === null ? 'null' : typeof text}, not the reply's text; the history was left as it was`,
    );
  }
  const summary = section(text, 'summary');
  if (!summary) {
    const start = text.trim().slice(0, 200);
    throw new SpoolforgeError(
      'E_COMPACTION_FAILED',
      `The summariser replied without ${summary === '' ? 'anything in its' : 'a'} <summary>…</summary> section (cut off by its output ` +
        `token limit, or it did not follow the instruction); the history was left as it was. Reply began: ${JSON.stringify(start)}`,
    );
  }
  return { retain: section(text, 'retain') ?? '', summary };
}

function section(text: string, tag: string): string | undefined {
  return new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(text)?.[1]?.trim();
}

/**
 * The user message that stands for the compacted past at the start of a history: the retained
 * facts and the summary, in the same tags, so a later compaction carries them forward.
 *
 * @example
 * ```ts
 * const history = [summaryMessage({ retain: 'id 4812', summary: 'The linker failed.' }), ...recent];
 * ```
 */
export function summaryMessage({ retain, summary }: ConversationSummary): ConversationMessage {
  const retained = retain === '' ? '' : `<retain>\n${retain}\n</retain>\n`;
  return {
    role: 'user',
    content:
      'Summary of the conversation so far (earlier messages were compacted into it; the tool ' +
      'outputs it names by ref are still stored):\n\n' +
      `${retained}<summary>\n${summary}\n</summary>`,
  };
}
