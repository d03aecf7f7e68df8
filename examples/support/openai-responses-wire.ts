// The OpenAI Responses wire format, for the scripted model.
import type {
  OfferedTool,
  ReturnedResult,
  ScriptedReply,
  StreamEvent,
  WireFormat,
} from './scripted-model.js';

interface InputItem {
  type?: string;
  call_id?: string;
  output?: unknown;
}

interface FlatFunctionTool {
  type: string;
  name: string;
  description?: string | null;
  parameters?: Record<string, unknown> | null;
}

// `output` is a string, or `input_text` / `input_image` / `input_file` parts.
const textOf = (output: unknown): string =>
  typeof output === 'string'
    ? output
    : Array.isArray(output)
      ? output
          .filter((part: { type?: string }) => part.type === 'input_text')
          .map((part: { text?: string }) => part.text ?? '')
          .join('\n')
      : '';

/** OpenAI's 400 body for an `input` whose function calls and outputs do not pair up. */
const invalidInput = (message: string) => ({
  error: { message, type: 'invalid_request_error', param: 'input', code: null },
});

/** What the real API checks: each `function_call` has its output, each output its call. */
function rejectUnpairedCalls(input: InputItem[]) {
  const ids = (type: string) =>
    input.filter((item) => item.type === type).map((item) => item.call_id ?? '');
  const calls = ids('function_call');
  const outputs = ids('function_call_output');
  const unanswered = calls.find((id) => !outputs.includes(id));
  if (unanswered !== undefined) {
    return invalidInput(`No tool output found for function call ${unanswered}.`);
  }
  const orphan = outputs.find((id) => !calls.includes(id));
  if (orphan !== undefined) {
    return invalidInput(`No tool call found for function call output with call_id ${orphan}.`);
  }
  return undefined;
}

/**
 * The conversation of each response the API stored, by id: the input of its request (after the
 * one it continued, through `previous_response_id`) and its output.
 */
const conversations = new Map<string, InputItem[]>();
/** Keeps response ids apart across scripted models in one process. */
let responseCount = 0;

/** The request's whole conversation: its input after the stored one it continues, if any. */
function conversationOf(body: Record<string, unknown>): InputItem[] | undefined {
  const input = Array.isArray(body.input) ? (body.input as InputItem[]) : [];
  const previous = body.previous_response_id;
  if (typeof previous !== 'string') return input;
  const earlier = conversations.get(previous);
  return earlier && [...earlier, ...input];
}

/**
 * `POST /v1/responses`: flat `function` tools, `function_call_output` input items, and a
 * Response whose `output` holds `function_call` items or an assistant `message`.
 */
export const openAIResponsesWire: WireFormat = {
  path: '/v1/responses',
  parse(body) {
    const tools: OfferedTool[] = ((body.tools as FlatFunctionTool[] | undefined) ?? [])
      .filter((tool) => tool.type === 'function')
      .map((tool) => ({
        name: tool.name,
        ...(tool.description ? { description: tool.description } : {}),
        parameters: tool.parameters ?? {},
      }));
    const input = Array.isArray(body.input) ? (body.input as InputItem[]) : [];
    const results: ReturnedResult[] = input
      .filter((item) => item.type === 'function_call_output')
      .map((item) => {
        const text = textOf(item.output);
        return { callId: item.call_id ?? '', text, isError: text.startsWith('Error (') };
      });
    return { tools, results };
  },
  reject(body) {
    const conversation = conversationOf(body);
    if (conversation) return rejectUnpairedCalls(conversation);
    return {
      error: {
        message: `Previous response with id '${String(body.previous_response_id)}' not found.`,
        type: 'invalid_request_error',
        param: 'previous_response_id',
        code: 'previous_response_not_found',
      },
    };
  },
  format(reply: ScriptedReply, index, body) {
    const output =
      'text' in reply
        ? [
            {
              type: 'message',
              id: `msg_${index}`,
              status: 'completed',
              role: 'assistant',
              content: [{ type: 'output_text', text: reply.text, annotations: [] }],
            },
          ]
        : reply.toolCalls.map((call, position) => ({
            type: 'function_call',
            id: `fc_${index}_${position}`,
            call_id: `call_${index}_${position}`,
            name: call.name,
            arguments: JSON.stringify(call.arguments),
            status: 'completed',
          }));
    const id = `resp_${index}_${++responseCount}`;
    // Stored unless the request says `store: false`, so a later one may continue it.
    if (body.store !== false) conversations.set(id, [...(conversationOf(body) ?? []), ...output]);
    // The SDK computes `output_text` itself from the `message` items of a `response` object.
    return {
      id,
      object: 'response',
      created_at: 1_790_000_000 + index,
      status: 'completed',
      model: String(body.model ?? 'scripted'),
      output,
      error: null,
      incomplete_details: null,
      instructions: null,
      metadata: {},
      parallel_tool_calls: true,
      temperature: null,
      top_p: null,
      tool_choice: 'auto',
      tools: body.tools ?? [],
      usage: {
        input_tokens: 0,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: 0,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 0,
      },
    };
  },
  /** The events the API streams for a request with `stream: true`, ending with the response. */
  stream(reply, index, body) {
    const response = openAIResponsesWire.format(reply, index, body) as { output: OutputItem[] };
    const events: StreamEvent[] = [];
    const emit = (type: string, data: Record<string, unknown>) =>
      events.push({ event: type, data: { type, sequence_number: events.length, ...data } });
    emit('response.created', { response: { ...response, status: 'in_progress', output: [] } });
    response.output.forEach((item, output_index) => {
      emit('response.output_item.added', { output_index, item });
      for (const [content_index, part] of (item.content ?? []).entries()) {
        // The text comes in two deltas, as a model streams it.
        const half = Math.ceil(part.text.length / 2);
        for (const delta of [part.text.slice(0, half), part.text.slice(half)]) {
          const at = { item_id: item.id, output_index, content_index };
          emit('response.output_text.delta', { ...at, delta });
        }
      }
      emit('response.output_item.done', { output_index, item });
    });
    emit('response.completed', { response });
    return events;
  },
};

/** An item of a Response's `output`: an assistant `message` or a `function_call`. */
interface OutputItem {
  id: string;
  content?: { text: string }[];
}
