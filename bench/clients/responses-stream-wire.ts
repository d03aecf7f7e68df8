// The OpenAI Responses API as Codex calls it: `POST /v1/responses` with `stream: true`,
// answered with response.created … response.completed events.
import { type ApiWire, type ModelReply, type SeenResult, sse, stringsIn } from './model-server.js';

interface Item {
  type?: string;
  call_id?: string;
  output?: unknown;
}

interface Tool {
  type?: string;
  name?: string;
  tools?: Tool[];
}

/** Tool names, with those inside a namespace tool spelled as the model calls them. */
const namesOf = (tools: Tool[]): string[] =>
  tools.flatMap((tool) => [
    ...(tool.name === undefined ? [] : [tool.name]),
    ...namesOf(tool.tools ?? []).map((name) => (tool.name ? `${tool.name}.${name}` : name)),
  ]);

/** `mcp__files.read_text_file` → `{ namespace: 'mcp__files', name: 'read_text_file' }`. */
function splitName(name: string): { name: string; namespace?: string } {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? { name } : { namespace: name.slice(0, dot), name: name.slice(dot + 1) };
}

const outputOf = (reply: ModelReply, index: number) =>
  'text' in reply
    ? {
        type: 'message',
        id: `msg_${index}`,
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: reply.text, annotations: [] }],
      }
    : {
        type: 'function_call',
        id: `fc_${index}`,
        call_id: `call_${index}`,
        // A tool inside a namespace tool is called by its own name, with the namespace beside it.
        ...splitName(reply.call.name),
        arguments: JSON.stringify(reply.call.arguments),
        status: 'completed',
      };

const responseOf = (reply: ModelReply, body: Record<string, unknown>, index: number) => ({
  id: `resp_${index}`,
  object: 'response',
  created_at: 1_790_000_000 + index,
  status: 'completed',
  model: String(body.model ?? 'scripted'),
  output: [outputOf(reply, index)],
  error: null,
  incomplete_details: null,
  usage: {
    input_tokens: 100,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 10,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 110,
  },
});

/** `POST /v1/responses`. */
export const responsesStreamWire: ApiWire = {
  name: 'responses',
  matches: (path) => path === '/v1/responses',
  streams: (_path, body) => body.stream === true,
  parse(body) {
    const tools = namesOf((body.tools as Tool[] | undefined) ?? []);
    const input = Array.isArray(body.input) ? (body.input as Item[]) : [];
    const results: SeenResult[] = input
      .filter(
        (item) => item.type === 'function_call_output' || item.type === 'custom_tool_call_output',
      )
      .map((item) => ({ callId: item.call_id ?? '', raw: item, text: stringsIn(item.output) }));
    return { tools, results };
  },
  json: responseOf,
  stream(reply, body, index) {
    const response = responseOf(reply, body, index);
    const [item] = response.output;
    let sequence = 0;
    const event = (type: string, data: Record<string, unknown>) =>
      sse(type, { type, sequence_number: sequence++, ...data });
    let out = event('response.created', {
      response: { ...response, status: 'in_progress', output: [] },
    });
    out += event('response.output_item.added', { output_index: 0, item });
    if ('text' in reply) {
      out += event('response.output_text.delta', {
        item_id: `msg_${index}`,
        output_index: 0,
        content_index: 0,
        delta: reply.text,
      });
    }
    out += event('response.output_item.done', { output_index: 0, item });
    return out + event('response.completed', { response });
  },
};
