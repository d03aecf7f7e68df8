// The OpenAI Chat Completions wire format, for the scripted model.
import type { ReturnedResult, ScriptedReply, WireFormat } from './scripted-model.js';

interface ChatMessage {
  role: string;
  content?: unknown;
  tool_call_id?: string;
  tool_calls?: { id: string }[];
}

const textOf = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content.map((part: { text?: string }) => part.text ?? '').join('')
      : '';

/** OpenAI's 400 body for a request whose `messages[index]` breaks the tool call pairing. */
const invalidRequest = (message: string, index: number) => ({
  error: { message, type: 'invalid_request_error', param: `messages.[${index}].role`, code: null },
});

/**
 * What the real API checks: an assistant message's `tool_calls` must each be answered by the
 * `role: "tool"` messages right after it, and a tool message must answer such a call.
 */
function rejectUnpairedToolCalls(messages: ChatMessage[]) {
  let open = new Set<string>();
  let openAt = -1;
  const unanswered = () =>
    invalidRequest(
      "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. " +
        `The following tool_call_ids did not have response messages: ${[...open].join(', ')}`,
      openAt,
    );
  for (const [index, message] of messages.entries()) {
    if (message.role === 'tool') {
      // A result must answer a call of the assistant message before it, and only once.
      if (!open.delete(message.tool_call_id ?? '')) {
        return invalidRequest(
          "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
          index,
        );
      }
      continue;
    }
    if (open.size > 0) return unanswered();
    open = new Set((message.tool_calls ?? []).map((call) => call.id));
    openAt = message.role === 'assistant' && open.size > 0 ? index : -1;
  }
  return open.size > 0 ? unanswered() : undefined;
}

/** `POST /v1/chat/completions`: `tools[].function`, `role: "tool"` results, `tool_calls` replies. */
export const openAIChatWire: WireFormat = {
  path: '/v1/chat/completions',
  parse(body) {
    const tools = (
      (body.tools as {
        function: { name: string; description?: string; parameters: Record<string, unknown> };
      }[]) ?? []
    ).map((tool) => tool.function);
    const messages = (body.messages as ChatMessage[]) ?? [];
    const resultsOf = (from: number): ReturnedResult[] =>
      messages
        .slice(from)
        .filter((message) => message.role === 'tool')
        .map((message) => {
          const text = textOf(message.content);
          return { callId: message.tool_call_id ?? '', text, isError: text.startsWith('Error (') };
        });
    const lastUser = messages.findLastIndex((message) => message.role === 'user');
    return {
      tools,
      results: resultsOf(0),
      resultsSinceUser: resultsOf(lastUser + 1),
      userText: textOf(messages[lastUser]?.content),
      transcript: messages.map((message) => textOf(message.content)).join('\n'),
    };
  },
  reject: (body) => rejectUnpairedToolCalls((body.messages as ChatMessage[] | undefined) ?? []),
  format(reply: ScriptedReply, index, body) {
    const message =
      'text' in reply
        ? { role: 'assistant', content: reply.text, refusal: null }
        : {
            role: 'assistant',
            content: null,
            refusal: null,
            tool_calls: reply.toolCalls.map((call, position) => ({
              id: `call_${index}_${position}`,
              type: 'function',
              function: { name: call.name, arguments: JSON.stringify(call.arguments) },
            })),
          };
    return {
      id: `chatcmpl-${index}`,
      object: 'chat.completion',
      created: 1_790_000_000 + index,
      model: String(body.model ?? 'scripted'),
      choices: [
        {
          index: 0,
          message,
          finish_reason: 'text' in reply ? 'stop' : 'tool_calls',
          logprobs: null,
        },
      ],
      // About four bytes a token, as a real model would count the request.
      usage: usageOf(body, message),
    };
  },
};

function usageOf(body: Record<string, unknown>, reply: unknown) {
  const prompt = Math.ceil(JSON.stringify([body.messages, body.tools ?? []]).length / 4);
  const completion = Math.ceil(JSON.stringify(reply).length / 4);
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
  };
}
