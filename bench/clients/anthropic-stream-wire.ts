// The Anthropic Messages API as Claude Code calls it: `POST /v1/messages` with `stream: true`,
// answered with the message_start … message_stop events.
import { type ApiWire, type ModelReply, type SeenResult, sse, stringsIn } from './model-server.js';

interface Block {
  type?: string;
  tool_use_id?: string;
  content?: unknown;
}

const message = (reply: ModelReply, body: Record<string, unknown>, index: number) => ({
  id: `msg_scripted_${index}`,
  type: 'message',
  role: 'assistant',
  model: String(body.model ?? 'scripted'),
  content:
    'text' in reply
      ? [{ type: 'text', text: reply.text }]
      : [
          {
            type: 'tool_use',
            id: `toolu_${index}`,
            name: reply.call.name,
            input: reply.call.arguments,
          },
        ],
  stop_reason: 'text' in reply ? 'end_turn' : 'tool_use',
  stop_sequence: null,
  usage: { input_tokens: 100, output_tokens: 10 },
});

/** `POST /v1/messages` (and `/v1/messages/count_tokens`). */
export const anthropicStreamWire: ApiWire = {
  name: 'anthropic',
  matches: (path) => path === '/v1/messages' || path === '/v1/messages/count_tokens',
  streams: (_path, body) => body.stream === true,
  side: (path) => (path.endsWith('/count_tokens') ? { input_tokens: 100 } : undefined),
  parse(body) {
    const tools = ((body.tools as { name?: string }[] | undefined) ?? []).map(
      (tool) => tool.name ?? '',
    );
    const results: SeenResult[] = ((body.messages as { role: string; content: unknown }[]) ?? [])
      .filter((entry) => entry.role === 'user' && Array.isArray(entry.content))
      .flatMap((entry) => entry.content as Block[])
      .filter((block) => block.type === 'tool_result')
      .map((block) => ({
        callId: block.tool_use_id ?? '',
        raw: block,
        text: stringsIn(block.content),
      }));
    return { tools, results };
  },
  json: message,
  stream(reply, body, index) {
    const whole = message(reply, body, index);
    let out = sse('message_start', {
      type: 'message_start',
      message: {
        ...whole,
        content: [],
        stop_reason: null,
        usage: { input_tokens: 100, output_tokens: 1 },
      },
    });
    const start =
      'text' in reply
        ? { type: 'text', text: '' }
        : { type: 'tool_use', id: `toolu_${index}`, name: reply.call.name, input: {} };
    out += sse('content_block_start', {
      type: 'content_block_start',
      index: 0,
      content_block: start,
    });
    const delta =
      'text' in reply
        ? { type: 'text_delta', text: reply.text }
        : { type: 'input_json_delta', partial_json: JSON.stringify(reply.call.arguments) };
    out += sse('content_block_delta', { type: 'content_block_delta', index: 0, delta });
    out += sse('content_block_stop', { type: 'content_block_stop', index: 0 });
    out += sse('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: whole.stop_reason, stop_sequence: null },
      usage: { output_tokens: 10 },
    });
    return out + sse('message_stop', { type: 'message_stop' });
  },
};
