import { approximateTokens, type TokenEncoding } from '../artifact/tokens/approximate-tokens.js';
import { countTextTokens } from '../artifact/tokens/load-tokenizer.js';
import type { ConversationMessage, ConversationToolCall } from './conversation-message.js';

/**
 * What a request costs beyond its messages' text, counted the way the providers bill it: every
 * message (and every tool call item, which the Responses API sends as an item of its own) has
 * framing and a role, a request primes the reply, a tool result flags an error.
 */
const messageOverheadTokens = 4;
const replyPrimingTokens = 3;
const errorFlagTokens = 1;

/**
 * A run the tokenizer counts in 512-byte pieces (no split point in it): each cut may count a
 * token fewer than the provider, who tokenizes the run whole.
 */
const unbrokenRun = /\S{128,}|\s{128,}/u;
const unbrokenPieceBytes = 512;

/**
 * The tokens of `text` with `encoding`'s tokenizer, else bytes / 4. A text with a long unbroken
 * run (a base64 blob, a minified line) adds a token per 512 bytes, so the count never falls
 * short of the provider's.
 *
 * @example
 * ```ts
 * const tokens = await textTokens('Why did the build fail?', 'o200k_base');
 * ```
 */
export async function textTokens(
  text: string,
  encoding: TokenEncoding | undefined,
): Promise<number> {
  if (text === '') return 0;
  const bytes = Buffer.byteLength(text);
  if (encoding === undefined) return approximateTokens(bytes);
  const cuts = unbrokenRun.test(text) ? Math.floor(bytes / unbrokenPieceBytes) : 0;
  return (await countTextTokens(text, encoding)) + cuts;
}

/**
 * What a request costs besides its messages: the system prompt as a message of its own, the
 * tool definitions as their JSON, the reply's priming.
 *
 * @example
 * ```ts
 * const fixed = await requestTokens({ instructions, tools, encoding: 'o200k_base' });
 * ```
 */
export async function requestTokens(options: {
  instructions?: string | undefined;
  tools?: unknown;
  encoding?: TokenEncoding | undefined;
}): Promise<number> {
  const { instructions, tools, encoding } = options;
  let tokens = replyPrimingTokens;
  if (instructions) tokens += messageOverheadTokens + (await textTokens(instructions, encoding));
  if (tools) tokens += await textTokens(JSON.stringify(tools), encoding);
  return tokens;
}

/**
 * The tokens a message costs in a request, as an upper bound of what every adapter renders for
 * it: its text and framing, each tool call as the largest of its renderings (arguments as an
 * escaped JSON string, or parsed into an object), a tool result's call id, tool name and error
 * flag. Exact tokenizers make it a bound; bytes / 4 is an estimate.
 *
 * @example
 * ```ts
 * const tokens = await messageTokens(message, 'o200k_base');
 * ```
 */
export async function messageTokens(
  message: ConversationMessage,
  encoding: TokenEncoding | undefined,
): Promise<number> {
  let tokens = messageOverheadTokens + (await textTokens(message.content, encoding));
  if (message.role === 'tool') {
    tokens += await textTokens(message.toolCallId, encoding);
    tokens += await textTokens(message.toolName, encoding);
    if (message.isError) tokens += errorFlagTokens;
  } else if (message.role === 'assistant') {
    for (const call of message.toolCalls ?? []) {
      const renderings = await Promise.all(
        callRenderings(call).map((text) => textTokens(text, encoding)),
      );
      tokens += messageOverheadTokens + Math.max(...renderings);
    }
  }
  return tokens;
}

/**
 * A call the way the adapters put it in a request: Chat Completions and Responses keep the
 * arguments as a JSON string (escaped once more), Anthropic and the AI SDK parse them into an
 * object (re-serialised, so whitespace and `\u` escapes change).
 */
function callRenderings({ id, name, arguments: text }: ConversationToolCall): string[] {
  let input: unknown = { arguments: text };
  try {
    input = JSON.parse(text);
  } catch {
    // Not JSON: the adapters send it as text.
  }
  return [
    JSON.stringify({ id, type: 'function', function: { name, arguments: text } }),
    JSON.stringify({ type: 'function_call', call_id: id, name, arguments: text }),
    JSON.stringify({ type: 'tool_use', id, name, input }),
    JSON.stringify({ type: 'tool-call', toolCallId: id, toolName: name, input }),
  ];
}
