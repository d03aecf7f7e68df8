import type { ResultLimits } from '../artifact/forge/model-lines.js';
import type { ConversationMessage } from './conversation-message.js';
import type { TokenUsage } from './should-compact.js';

/**
 * How an adapter renders a projection's messages into a request: the request's key that holds
 * them, and the converter. The adapters export one per API (`chatCompletionsFormat`,
 * `responsesFormat` from `spoolforge/openai`, `modelMessagesFormat` from `spoolforge/ai-sdk`,
 * …); a model call's record names its format, and reading the call back renders the messages
 * again with it.
 *
 * @example
 * ```ts
 * const format: MessageFormat<{ instructions?: string }> = {
 *   name: 'my-api',
 *   key: 'messages',
 *   render: (messages, options) => [{ role: 'system', content: options.instructions }, ...messages],
 * };
 * ```
 */
export interface MessageFormat<Options = undefined> {
  /** Recorded with each call: the format to read the call back with. */
  name: string;
  /** The request's key whose value is the rendered messages. */
  key: string;
  render(messages: readonly ConversationMessage[], options: Options): unknown;
}

/**
 * Which messages of the log a call's request carried: the compaction in effect, the message
 * events `[from, to)`, and which tool outputs were trimmed to placeholders. Enough, with the log,
 * to render the request's messages again byte for byte.
 */
export interface ModelCallContext {
  /** The seq of the compaction event whose summary came first, if any. */
  compaction?: number;
  /** The message events with `from <= seq < to` followed (compaction events among them skipped). */
  from: number;
  to: number;
  /**
   * Events below this seq were read back when the log was opened, so their handles named
   * `tool_output_cache` (see `restoredHandle`); 0 for a log opened empty.
   */
  restored: number;
  /**
   * The seqs below `restored` whose handles a session offering their calls again kept as
   * recorded (a `ConversationPool` revival, `keepHandle`), as runs like `trimmed`.
   */
  kept?: [number, number, number][];
  /**
   * The seqs of the tool messages shown as `[tool output trimmed; ref=…]`, as runs `[first,
   * step, count]` (`[[2, 4, 3]]` is 2, 6, 10): a turn's outputs come every few events, so a
   * long trimmed past is a run or two.
   */
  trimmed?: [number, number, number][];
  /** The projection's limits, when not the defaults. */
  limits?: ResultLimits;
}

/**
 * One recorded model call: what was asked, of which model, what it cost and how long it took.
 * The request itself is read back with `ConversationLog.modelCalls.request(call)`.
 */
export interface ModelCallRecord {
  /** Counts from 0 per conversation, in the order calls were recorded. */
  call: number;
  /** When the call started, epoch milliseconds. */
  time: number;
  latencyMs: number;
  model: string;
  /** The {@link MessageFormat.name} its messages were rendered with. */
  format: string;
  context: ModelCallContext;
  usage?: TokenUsage;
  /** The error's message, when the call failed. */
  error?: string;
}

/**
 * A model call as a backend stores it: the record, the request with its messages replaced by a
 * placeholder and its large values by hashes (`{"$v": hash}`), and the values this call is the
 * first (since the log was opened) to use. Opaque to backends: they store and return it whole.
 */
export interface StoredModelCall extends ModelCallRecord {
  /** The request, its messages `{"$m": 1}`, large values `{"$v": hash}`. */
  request: unknown;
  /** The format's options, with large values as hashes too. */
  formatOptions?: unknown;
  /** Values by hash, stored once per log opening: later calls reference them. */
  values?: Record<string, unknown>;
}

/**
 * What `ConversationLog.modelCalls.record` takes: the projection a request was rendered from,
 * the request as sent, and what the call returned.
 */
export interface ModelCallInput<Options> {
  /**
   * The `projectContext` result of this log's `history()` the request's messages were rendered
   * from. Record the call before appending its reply: the messages are checked against the log.
   */
  projection: { messages: readonly ConversationMessage[]; trimmed: readonly string[] };
  /** The projection's limits, when not the defaults. */
  limits?: ResultLimits;
  /** The request as sent; `request[format.key]` must be `format.render(projection.messages, formatOptions)`. */
  request: object;
  format: MessageFormat<Options>;
  formatOptions?: Options;
  /** Default `request.model` when it is a string. */
  model?: string;
  /** When the call started (epoch milliseconds): the latency is measured from it. */
  startedAt: number;
  usage?: TokenUsage;
  error?: unknown;
  signal?: AbortSignal;
}
