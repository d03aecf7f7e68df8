import type { ResultLimits } from '../artifact/forge/model-lines.js';
import type { TokenEncoding } from '../artifact/tokens/approximate-tokens.js';
import { type ContextBudgetOptions, contextBudget } from './context-budget.js';
import type { ConversationMessage } from './conversation-message.js';
import { messageView, toolOutputRef } from './message-view.js';
import { pairToolCalls } from './pair-tool-calls.js';
import { messageTokens, requestTokens } from './request-tokens.js';

/**
 * Options for {@link projectContext}.
 */
export interface ProjectContextOptions extends ContextBudgetOptions, ResultLimits {
  /** The system prompt, sent with every request: counted against the budget. */
  instructions?: string;
  /**
   * The request's tool definitions as you send them (`dispatch.tools`): counted against the
   * budget as their JSON. Forged tools' `callId` enums grow with the calls offered.
   */
  tools?: unknown;
  /** Count tokens with this tokenizer (`o200k_base`, `cl100k_base`); otherwise bytes / 4. */
  encoding?: TokenEncoding;
}

/**
 * What a model is sent for a turn, and what it cost.
 *
 * @example
 * ```ts
 * const { messages, tokens, budgetTokens, trimmed, overBudget } = await projectContext(log.history(), options);
 * ```
 */
export interface ContextProjection {
  /**
   * The history with tool outputs cut to their limits or trimmed, every tool call answered (a
   * call left without its result, by a process stopped mid-run, gets an error result saying it
   * was interrupted) and every result asked for: sendable as it is.
   */
  messages: ConversationMessage[];
  /**
   * Tokens of the request: `instructions`, `tools` and `messages`, with the framing, tool call
   * JSON and ids the adapters add. With an `encoding`, no adapter's rendering of the projection
   * costs more; bytes / 4 is an estimate.
   */
  tokens: number;
  budgetTokens: number;
  /** The refs of the tool outputs replaced by a placeholder, oldest first. */
  trimmed: string[];
  /** Even with every older tool output trimmed, the rest is over budget: time to compact. */
  overBudget: boolean;
}

/**
 * What a trimmed tool output is shown as: `[tool output trimmed; ref=…]`.
 *
 * @example
 * ```ts
 * trimmedPlaceholder({ role: 'tool', toolCallId: 'c1', toolName: 'grep', content: '…', ref: 'a1' }).content; // '[tool output trimmed; ref=a1]'
 * ```
 */
export function trimmedPlaceholder<Message extends Extract<ConversationMessage, { role: 'tool' }>>(
  message: Message,
): Message {
  return { ...message, content: `[tool output trimmed; ref=${toolOutputRef(message)}]` };
}

/** Per message object: a log's messages are projected again every turn, unchanged. */
const viewCache = new WeakMap<object, Map<string, ConversationMessage>>();
const countCache = new WeakMap<object, Map<string, Promise<number>>>();

function memoized<Value>(
  cache: WeakMap<object, Map<string, Value>>,
  object: object,
  key: string,
  compute: () => Value,
): Value {
  let values = cache.get(object);
  if (!values) {
    values = new Map();
    cache.set(object, values);
  }
  if (!values.has(key)) values.set(key, compute());
  return values.get(key) as Value;
}

/**
 * Renders a history under a token budget. Every tool output is cut to `maxLineChars` per line
 * and `maxResultBytes` in all, and so is any other message over `maxResultBytes` (see
 * {@link messageView}); a call without its result is answered as interrupted (see
 * {@link ContextProjection.messages}); when the whole exceeds the budget, the oldest tool outputs are
 * replaced by `[tool output trimmed; ref=…]` until it fits, while the latest batch of results
 * stays. Trimmed outputs stay queryable (`tool_output_cache`, the forged `artifact_*` tools).
 * Deterministic: no model is called; the same history and options give the same projection.
 *
 * @example
 * ```ts
 * const projection = await projectContext(log.history(), { contextWindow: 128_000, instructions });
 * if (projection.overBudget) await compactLog(log, { summarise, contextWindow: 128_000 });
 * ```
 */
export async function projectContext(
  history: readonly ConversationMessage[],
  options: ProjectContextOptions = {},
): Promise<ContextProjection> {
  const budgetTokens = contextBudget(options);
  const { encoding } = options;
  const count = (message: ConversationMessage) =>
    memoized(countCache, message, encoding ?? '', () => messageTokens(message, encoding));
  const limitsKey = `${options.maxLineChars}/${options.maxResultBytes}`;
  const messages = pairToolCalls(history, { unanswered: 'interrupted' }).map((message) =>
    memoized(viewCache, message, limitsKey, () => messageView(message, options)),
  );
  const costs = await Promise.all(messages.map(count));
  let tokens = costs.reduce((sum, cost) => sum + cost, 0);
  tokens += await requestTokens({
    instructions: options.instructions,
    tools: options.tools,
    encoding,
  });
  const trimmed: string[] = [];
  // The results after the last non-tool message answer the call being worked on: never trimmed.
  let latestBatch = messages.length;
  while (latestBatch > 0 && messages[latestBatch - 1]?.role === 'tool') latestBatch--;
  for (let index = 0; index < latestBatch && tokens > budgetTokens; index++) {
    const message = messages[index];
    if (message?.role !== 'tool') continue;
    const placeholder = trimmedPlaceholder(message);
    const saved = (costs[index] ?? 0) - (await count(placeholder));
    // A short output costs no more than its placeholder: keep it.
    if (saved <= 0) continue;
    tokens -= saved;
    messages[index] = placeholder;
    trimmed.push(toolOutputRef(message));
  }
  return { messages, tokens, budgetTokens, trimmed, overBudget: tokens > budgetTokens };
}
