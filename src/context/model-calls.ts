import { SpoolforgeError, throwIfAborted } from '../shared/spoolforge-error.js';
import type { ConversationLogBackend } from './conversation-log-backend.js';
import type { CompactionRecord, ConversationEvent } from './conversation-message.js';
import type {
  MessageFormat,
  ModelCallContext,
  ModelCallInput,
  ModelCallRecord,
  StoredModelCall,
} from './model-call.js';
import { contextMessages, runsOfSeqs, trimmedSeqs } from './model-call-context.js';
import { internValues, KnownValues, referencedHashes, restoreValues } from './model-call-values.js';

type MessageEvent = Extract<ConversationEvent, { type: 'message' }>;

/** What a log's model calls need of its state at the moment a call is recorded. */
export interface ModelCallLogState {
  compaction: { record: CompactionRecord; seq: number } | undefined;
  events: readonly MessageEvent[];
  nextSeq: number;
  /** The `nextSeq` the log had when it was opened. */
  restored: number;
  /** The seqs below `restored` whose handles were kept as recorded (see `keepHandle`). */
  keptHandles: readonly number[];
}

/**
 * The model calls of one conversation, recorded beside its log (`ConversationLog.modelCalls`):
 * each call's model, usage, latency and the request as sent, its messages kept as a reference
 * to the log's events (which compaction, which events, which outputs were trimmed) and its large
 * values (the tools, the instructions) stored once and referenced by hash. A call's record
 * costs bytes for its references, not for its context.
 *
 * @example
 * ```ts
 * const projection = await projectContext(log.history(), { contextWindow: 128_000 });
 * const body = { model, messages: toChatCompletionsMessages(projection.messages, { instructions }) };
 * const startedAt = Date.now();
 * const completion = await client.chat.completions.create(body);
 * const usage = usageOfChatCompletion(completion);
 * await log.modelCalls.record({ projection, request: body, format: chatCompletionsFormat, formatOptions: { instructions }, startedAt, usage });
 * const sent = await log.modelCalls.request(0, { formats: [chatCompletionsFormat] }); // the bytes of body
 * ```
 */
export class ModelCalls {
  readonly #backend: ConversationLogBackend;
  readonly #state: () => ModelCallLogState;
  readonly #now: () => number;
  readonly #known = new KnownValues();
  #nextCall: number | undefined;
  #writing: Promise<unknown> = Promise.resolve();

  constructor(backend: ConversationLogBackend, state: () => ModelCallLogState, now: () => number) {
    this.#backend = backend;
    this.#state = state;
    this.#now = now;
  }

  /**
   * Records a call whose request's messages were rendered from a projection of the log as it
   * is now (record it before appending the reply).
   *
   * @throws SpoolforgeError `E_INVALID_ARGUMENT` when the backend keeps no model calls, or
   *   `request[format.key]` is not the format's rendering of this log's projection (another
   *   history, other limits, the reply already appended); what the backend throws.
   */
  async record<Options>(input: ModelCallInput<Options>): Promise<ModelCallRecord> {
    const { backend } = this.#supported();
    const state = this.#state();
    const context: ModelCallContext = {
      ...(state.compaction ? { compaction: state.compaction.seq } : {}),
      from: state.compaction?.record.keptFrom ?? 0,
      to: state.nextSeq,
      restored: state.restored,
    };
    const trimmed = trimmedSeqs(state.events, input.projection.trimmed);
    if (trimmed.length > 0) context.trimmed = runsOfSeqs(trimmed);
    if (state.keptHandles.length > 0) context.kept = runsOfSeqs(state.keptHandles);
    if (input.limits && Object.keys(input.limits).length > 0) context.limits = input.limits;
    const rendered = input.format.render(
      contextMessages(state.compaction?.record, state.events, context),
      input.formatOptions as Options,
    );
    const sent = (input.request as Record<string, unknown>)[input.format.key];
    if (JSON.stringify(rendered) !== JSON.stringify(sent)) {
      throw new SpoolforgeError(
        'E_INVALID_ARGUMENT',
        `request.${input.format.key} is not ${input.format.name}'s rendering of this log's projection: ` +
          'render projectContext(log.history()) with the same limits and format options, and record the call before appending its reply',
      );
    }
    const model = input.model ?? (input.request as { model?: unknown }).model;
    const written = this.#writing.then(async () => {
      throwIfAborted(input.signal);
      const call = this.#nextCall ?? (await this.#lastCall(input.signal)) + 1;
      const request = internValues(input.request, this.#known, input.format.key);
      const options = internValues(input.formatOptions, this.#known);
      const values = { ...request.values, ...options.values };
      const stored: StoredModelCall = {
        call,
        time: input.startedAt,
        latencyMs: Math.max(0, this.#now() - input.startedAt),
        model: typeof model === 'string' ? model : '',
        format: input.format.name,
        context,
        ...(input.usage ? { usage: input.usage } : {}),
        ...(input.error === undefined ? {} : { error: errorText(input.error) }),
        request: request.skeleton,
        ...(options.skeleton === undefined ? {} : { formatOptions: options.skeleton }),
        ...(Object.keys(values).length > 0 ? { values } : {}),
      };
      try {
        await backend.appendModelCall(stored, input.signal ? { signal: input.signal } : {});
      } catch (error) {
        // Not stored: a later call must store these values itself.
        this.#known.forget(Object.keys(values));
        throw error;
      }
      this.#nextCall = call + 1;
      return recordOf(stored);
    });
    this.#writing = written.catch(() => undefined);
    return written;
  }

  /** Call `call`'s record (model, usage, latency, context), `undefined` when there is none. */
  async get(
    call: number,
    options: { signal?: AbortSignal } = {},
  ): Promise<ModelCallRecord | undefined> {
    const stored = await this.#find(call, options.signal);
    return stored && recordOf(stored);
  }

  /**
   * Call `call`'s request exactly as it was sent: `JSON.stringify` of it is the bytes of the
   * request object the adapter built. Its messages are rendered again from the log with the
   * format the call was recorded with, one of `formats`.
   *
   * @throws SpoolforgeError `E_INVALID_ARGUMENT` when no call `call` was recorded or none of
   *   `formats` is its format; `E_LOG_DAMAGED` when its events or values are missing.
   */
  async request(
    call: number,
    // biome-ignore lint/suspicious/noExplicitAny: formats of any options.
    options: { formats: readonly MessageFormat<any>[]; signal?: AbortSignal },
  ): Promise<unknown> {
    const { signal } = options;
    const stored = await this.#find(call, signal);
    if (!stored)
      throw new SpoolforgeError('E_INVALID_ARGUMENT', `No model call ${call} was recorded`);
    const format = options.formats.find((each) => each.name === stored.format);
    if (!format) {
      throw new SpoolforgeError(
        'E_INVALID_ARGUMENT',
        `Model call ${call} was rendered with ${stored.format}: pass that format`,
      );
    }
    const values = await this.#values(stored, signal);
    const { compaction, events } = await this.#events(stored.context, signal);
    const messages = contextMessages(compaction, events, stored.context);
    const formatOptions = restoreValues(stored.formatOptions, values);
    return restoreValues(stored.request, values, format.render(messages, formatOptions));
  }

  #supported() {
    const backend = this.#backend;
    if (!backend.appendModelCall || !backend.readModelCalls) {
      throw new SpoolforgeError(
        'E_INVALID_ARGUMENT',
        'This conversation log backend keeps no model calls',
      );
    }
    return {
      backend: backend as Required<
        Pick<ConversationLogBackend, 'appendModelCall' | 'readModelCalls'>
      >,
    };
  }

  async #lastCall(signal: AbortSignal | undefined): Promise<number> {
    for await (const stored of this.#supported().backend.readModelCalls(signal ? { signal } : {})) {
      return stored.call;
    }
    return -1;
  }

  async #find(call: number, signal: AbortSignal | undefined) {
    if (!(Number.isSafeInteger(call) && call >= 0)) {
      throw new SpoolforgeError(
        'E_INVALID_ARGUMENT',
        `call must be a whole number, 0 or more: ${call}`,
      );
    }
    await this.#writing;
    const reading = this.#supported().backend.readModelCalls({
      before: call + 1,
      ...(signal ? { signal } : {}),
    });
    for await (const stored of reading) return stored.call === call ? stored : undefined;
    return undefined;
  }

  /** The values `stored` references, read back from it and the calls before it. */
  async #values(stored: StoredModelCall, signal: AbortSignal | undefined) {
    const values = new Map<string, unknown>();
    const missing = referencedHashes([stored.request, stored.formatOptions]);
    const take = (found: StoredModelCall) => {
      const offered = Object.entries(found.values ?? {});
      // A value's own references may come before it: go round until nothing more is taken.
      for (let taken = true; taken; ) {
        taken = false;
        for (const [hash, value] of offered) {
          if (!missing.delete(hash)) continue;
          taken = true;
          values.set(hash, value);
          for (const inner of referencedHashes(value)) if (!values.has(inner)) missing.add(inner);
        }
      }
    };
    take(stored);
    if (missing.size === 0) return values;
    const reading = this.#supported().backend.readModelCalls({
      before: stored.call,
      ...(signal ? { signal } : {}),
    });
    for await (const earlier of reading) {
      take(earlier);
      if (missing.size === 0) return values;
    }
    throw new SpoolforgeError(
      'E_LOG_DAMAGED',
      `Model call ${stored.call} references values no earlier call stored: ${[...missing].join(', ')}`,
    );
  }

  /** The compaction and message events a call's context names, read back from the log. */
  async #events(context: ModelCallContext, signal: AbortSignal | undefined) {
    const events: MessageEvent[] = [];
    let compaction: CompactionRecord | undefined;
    const oldest = Math.min(context.from, context.compaction ?? context.from);
    for await (const { event } of this.#backend.readBackward(signal ? { signal } : {})) {
      if (event.seq < oldest) break;
      if (event.seq >= context.to) continue;
      if (event.type === 'message' && event.seq >= context.from) events.push(event);
      if (event.type === 'compaction' && event.seq === context.compaction)
        compaction = event.compaction;
    }
    if (context.compaction !== undefined && !compaction) {
      throw new SpoolforgeError(
        'E_LOG_DAMAGED',
        `The log has no compaction at seq ${context.compaction}`,
      );
    }
    return { compaction, events: events.reverse() };
  }
}

function recordOf(stored: StoredModelCall): ModelCallRecord {
  const { request: _request, formatOptions: _options, values: _values, ...record } = stored;
  return record;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
