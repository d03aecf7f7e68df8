// The Anthropic Messages wire format, for the scripted model.
import type { ReturnedResult, ScriptedReply, WireFormat } from './scripted-model.js';

interface MessageParam {
  role: string;
  content?: unknown;
}

interface ContentBlock {
  type?: string;
  text?: string;
  tool_use_id?: string;
  content?: unknown;
  is_error?: boolean;
}

/** A `tool_result`'s content: a string, or blocks whose text blocks are joined. */
const textOf = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? (content as ContentBlock[])
          .filter((block) => block.type === 'text')
          .map((block) => block.text ?? '')
          .join('\n')
      : '';

/** The scripted model bills ~4 bytes a token of what it was sent. */
const roughTokens = (value: unknown) => Math.ceil(JSON.stringify(value ?? null).length / 4);

/**
 * `POST /v1/messages`: `tools[]` with `input_schema`, `tool_result` blocks in user messages,
 * replies as a `Message` with `tool_use` or `text` content.
 */
export const anthropicWire: WireFormat = {
  path: '/v1/messages',
  parse(body) {
    const tools = (
      (body.tools as {
        name: string;
        description?: string;
        input_schema: Record<string, unknown>;
      }[]) ?? []
    ).map((tool) => ({
      name: tool.name,
      ...(tool.description === undefined ? {} : { description: tool.description }),
      parameters: tool.input_schema,
    }));
    const results: ReturnedResult[] = ((body.messages as MessageParam[]) ?? [])
      .filter((message) => message.role === 'user' && Array.isArray(message.content))
      .flatMap((message) => message.content as ContentBlock[])
      .filter((block) => block.type === 'tool_result')
      .map((block) => ({
        callId: block.tool_use_id ?? '',
        text: textOf(block.content),
        isError: block.is_error === true,
      }));
    return { tools, results };
  },
  format(reply: ScriptedReply, index, body) {
    const content =
      'text' in reply
        ? [{ type: 'text', text: reply.text }]
        : reply.toolCalls.map((call, position) => ({
            type: 'tool_use',
            id: `toolu_${index}_${position}`,
            name: call.name,
            input: call.arguments,
          }));
    const output = 'text' in reply ? reply.text : reply.toolCalls;
    return {
      id: `msg_scripted_${index}`,
      type: 'message',
      role: 'assistant',
      model: String(body.model ?? 'scripted'),
      content,
      stop_reason: 'text' in reply ? 'end_turn' : 'tool_use',
      stop_sequence: null,
      usage: {
        input_tokens: roughTokens({
          system: body.system,
          messages: body.messages,
          tools: body.tools,
        }),
        output_tokens: roughTokens(output),
      },
    };
  },
};
