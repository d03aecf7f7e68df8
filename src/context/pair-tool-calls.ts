import type { ConversationMessage, ConversationToolCall } from './conversation-message.js';

/**
 * Options for {@link pairToolCalls}.
 */
export interface PairToolCallsOptions {
  /**
   * What becomes of a call no result answers: `'drop'` (default) removes it from its message;
   * `'interrupted'` answers it with an error result saying its run was interrupted (a process
   * that stopped mid-run leaves such calls in its log), so the model knows it never finished.
   */
  unanswered?: 'drop' | 'interrupted';
}

/**
 * The history with every tool call answered and every tool result asked for, the shape OpenAI
 * Chat Completions, Responses and Anthropic Messages all require: an assistant message's calls
 * must be answered by the tool messages directly after it. A call without its result is removed
 * from its message (the message stays as plain text if it has any, else it goes), or with
 * `unanswered: 'interrupted'` gets a result saying so; a tool result without its call becomes a
 * user message quoting it (or goes, if empty). A history that is already paired comes back
 * equal.
 *
 * @example
 * ```ts
 * pairToolCalls([
 *   { role: 'user', content: 'Build it' },
 *   { role: 'assistant', content: 'Building.', toolCalls: [{ id: 'call_1', name: 'run_build', arguments: '{}' }] },
 * ]);
 * // [{ role: 'user', content: 'Build it' }, { role: 'assistant', content: 'Building.' }]
 * ```
 */
export function pairToolCalls(
  history: readonly ConversationMessage[],
  options: PairToolCallsOptions = {},
): ConversationMessage[] {
  const paired: ConversationMessage[] = [];
  for (let index = 0; index < history.length; ) {
    const message = history[index] as ConversationMessage;
    index++;
    if (message.role === 'tool') {
      paired.push(...orphanResult(message));
      continue;
    }
    if (message.role === 'user' || !message.toolCalls?.length) {
      paired.push(message);
      continue;
    }
    // The tool messages right after the call are the only ones that can answer it.
    const results: Extract<ConversationMessage, { role: 'tool' }>[] = [];
    for (let next = history[index]; next?.role === 'tool'; next = history[index]) {
      results.push(next);
      index++;
    }
    const callIds = new Set(message.toolCalls.map((call) => call.id));
    const answered = new Set<string>();
    const answers: ConversationMessage[] = [];
    const orphans: ConversationMessage[] = [];
    for (const result of results) {
      if (callIds.has(result.toolCallId) && !answered.has(result.toolCallId)) {
        answered.add(result.toolCallId);
        answers.push(result);
      } else {
        orphans.push(...orphanResult(result));
      }
    }
    const unanswered = message.toolCalls.filter((call) => !answered.has(call.id));
    if (options.unanswered === 'interrupted') {
      paired.push(message, ...answers, ...unanswered.map(interruptedResult), ...orphans);
      continue;
    }
    paired.push(
      ...withCalls(
        message,
        message.toolCalls.filter((call) => answered.has(call.id)),
      ),
      ...answers,
      ...orphans,
    );
  }
  return paired;
}

/** `message` with only `toolCalls`; without any, plain text, or nothing when it has none. */
function withCalls(
  message: Extract<ConversationMessage, { role: 'assistant' }>,
  toolCalls: ConversationToolCall[],
): ConversationMessage[] {
  if (toolCalls.length > 0) return [{ ...message, toolCalls }];
  return message.content === '' ? [] : [{ role: 'assistant', content: message.content }];
}

/** A tool result no call asked for, kept as a quoted user message so what it said survives. */
function orphanResult(
  message: Extract<ConversationMessage, { role: 'tool' }>,
): ConversationMessage[] {
  if (message.content === '') return [];
  const ref = message.ref === undefined ? '' : `, ref=${message.ref}`;
  return [
    {
      role: 'user',
      content: `[Result of tool ${message.toolName} (call ${message.toolCallId}${ref})]\n${message.content}`,
    },
  ];
}

/** The result of a call whose run never finished: the model should know, and may call again. */
function interruptedResult(call: ConversationToolCall): ConversationMessage {
  return {
    role: 'tool',
    toolCallId: call.id,
    toolName: call.name,
    content: `[no result: the run of ${call.name} was interrupted before it finished (the process stopped); call it again if you still need it]`,
    isError: true,
  };
}
