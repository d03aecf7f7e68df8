import type { ResultLimits } from '../artifact/forge/model-lines.js';
import type { ConversationMessage } from './conversation-message.js';
import { messageView } from './message-view.js';
import { pairToolCalls } from './pair-tool-calls.js';

/**
 * Extra instructions for a summary: each becomes a bullet under the summary or the retain part
 * of the instruction; and the limits each message is cut to (those of {@link messageView}).
 */
export interface SummaryRequestOptions extends ResultLimits {
  /** Added to what the summary must cover. */
  summaryDirectives?: readonly string[];
  /** Added to what must be retained verbatim. */
  retainDirectives?: readonly string[];
}

const instruction = `The conversation above is about to be replaced by your summary of it; \
only your reply and the latest messages will remain. Do not call tools. Reply with exactly two \
sections and nothing else:

<retain>
The facts that must survive verbatim, one per line, copied exactly as they appear: ids, file \
paths, URLs, names, numbers, decisions made, open tasks, and artifact references (ref=…, call \
ids) that later work may need to query.
</retain>
<summary>
A concise summary of the conversation so far: the goal, what was done and found, and what \
remains to do.
</summary>`;

/**
 * The history formatted for a summariser: tool calls and results paired (a trailing assistant
 * message's calls, which no result answers yet, are dropped; it stays if it has text), since a
 * dangling tool call makes the provider APIs reject the whole request; each message bounded
 * like a projection's (tool outputs cut, a huge paste cut to `maxResultBytes`); each stored
 * output marked with its `ref=…` so the summary can retain it; then the instruction as a final user
 * message, asking for a `<retain>` and a `<summary>` section.
 *
 * @example
 * ```ts
 * const messages = summaryRequest(history, { summaryDirectives: ['Keep the error codes.'] });
 * const reply = await summarise(messages, {});
 * ```
 */
export function summaryRequest(
  history: readonly ConversationMessage[],
  options: SummaryRequestOptions = {},
): ConversationMessage[] {
  const content = [
    instruction,
    bullets('In the summary, also:', options.summaryDirectives),
    bullets('Also retain:', options.retainDirectives),
  ]
    .filter((part) => part !== '')
    .join('\n\n');
  const bounded = pairToolCalls(history).map((message) => withRef(messageView(message, options)));
  return [...bounded, { role: 'user', content }];
}

/** A stored text's ref, shown so the summary can retain it: the store outlives the history. */
function withRef(message: ConversationMessage): ConversationMessage {
  if (message.ref === undefined) return message;
  const note = `[stored ${message.role === 'tool' ? 'output' : 'message'}: ref=${message.ref}]`;
  return message.content.includes(note)
    ? message
    : { ...message, content: `${message.content}\n${note}` };
}

function bullets(heading: string, directives: readonly string[] | undefined): string {
  if (!directives?.length) return '';
  return [heading, ...directives.map((directive) => `- ${directive}`)].join('\n');
}
