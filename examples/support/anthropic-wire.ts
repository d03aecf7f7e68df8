// The Anthropic Messages wire format, for the scripted model.
import type { ReturnedResult, ScriptedReply, WireFormat } from './scripted-model.js';

interface MessageParam {
  role: string;
  content?: unknown;
}

interface ContentBlock {
  type?: string;
  text?: string;
  id?: string;
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

/** Anthropic's 400 body. */
const invalidRequest = (message: string) => ({
  type: 'error',
  error: { type: 'invalid_request_error', message },
});

const blocksOf = (message: MessageParam | undefined, type: string): ContentBlock[] =>
  Array.isArray(message?.content)
    ? (message.content as ContentBlock[]).filter((block) => block.type === type)
    : [];

/**
 * What the real API checks: every `tool_use` is answered by a `tool_result` in the very next
 * message, and every `tool_result` answers a `tool_use` of the message before.
 */
function rejectUnpairedToolUse(messages: MessageParam[]) {
  for (const [index, message] of messages.entries()) {
    const previous = messages[index - 1];
    const asked = previous?.role === 'assistant' ? blocksOf(previous, 'tool_use') : [];
    const orphan = blocksOf(message, 'tool_result').find(
      (block) => !asked.some((use) => use.id === block.tool_use_id),
    );
    if (message.role === 'user' && orphan) {
      const position = (message.content as ContentBlock[]).indexOf(orphan);
      return invalidRequest(
        `messages.${index}.content.${position}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${orphan.tool_use_id}. ` +
          'Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
      );
    }
    if (message.role !== 'assistant') continue;
    const next = messages[index + 1];
    const answered = next?.role === 'user' ? blocksOf(next, 'tool_result') : [];
    const missing = blocksOf(message, 'tool_use')
      .map((use) => use.id ?? '')
      .filter((id) => !answered.some((result) => result.tool_use_id === id));
    if (missing.length > 0) {
      return invalidRequest(
        `messages.${index}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. ` +
          'Each `tool_use` block must have a corresponding `tool_result` block in the next message.',
      );
    }
  }
  return undefined;
}

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
  reject: (body) => rejectUnpairedToolUse((body.messages as MessageParam[] | undefined) ?? []),
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
