// The OpenAI Chat Completions wire format, for the scripted model.
import type { ReturnedResult, ScriptedReply, WireFormat } from './scripted-model.js';

interface ChatMessage {
  role: string;
  content?: unknown;
  tool_call_id?: string;
}

const textOf = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content.map((part: { text?: string }) => part.text ?? '').join('')
      : '';

/** `POST /v1/chat/completions`: `tools[].function`, `role: "tool"` results, `tool_calls` replies. */
export const openAIChatWire: WireFormat = {
  path: '/v1/chat/completions',
  parse(body) {
    const tools = (
      (body.tools as {
        function: { name: string; description?: string; parameters: Record<string, unknown> };
      }[]) ?? []
    ).map((tool) => tool.function);
    const results: ReturnedResult[] = ((body.messages as ChatMessage[]) ?? [])
      .filter((message) => message.role === 'tool')
      .map((message) => {
        const text = textOf(message.content);
        return { callId: message.tool_call_id ?? '', text, isError: text.startsWith('Error (') };
      });
    return { tools, results };
  },
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
      usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
    };
  },
};
