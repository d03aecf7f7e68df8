import { join } from 'node:path';
import { SpoolforgeError } from '../shared/spoolforge-error.js';
import type { ArtifactStore } from '../store/artifact-store.js';
import type { ConversationLogBackend, LoggedEvent } from './conversation-log-backend.js';
import type { ConversationEvent } from './conversation-message.js';
import { JsonlFile } from './jsonl-file.js';
import type { StoredModelCall } from './model-call.js';

/**
 * Options for {@link JsonlConversationLogBackend.open}.
 */
export interface JsonlConversationLogOptions {
  /** `fdatasync` after every append: an acknowledged event survives a power cut. Default false. */
  sync?: boolean;
}

/**
 * A conversation log as a JSONL file, one event a line, appended and never rewritten, read
 * backwards in 64 KiB blocks, so a restart reads only the events it needs. A line torn by a
 * crash mid-append (no final newline) is cut off on open: its append never completed. The file
 * is a `PooledFile`: an idle log may be closed and is reopened on its next append or read, so
 * a process holds at most 64 such files open however many conversations it keeps open. Model
 * calls go to a second file beside it, `NAME.model-calls.jsonl`, opened on first use.
 *
 * @example
 * ```ts
 * const backend = await JsonlConversationLogBackend.open('/var/lib/agent/conversations/c1.jsonl');
 * const log = await ConversationLog.open({ backend });
 * ```
 */
export class JsonlConversationLogBackend implements ConversationLogBackend {
  readonly path: string;
  /** Where the model calls go: the log's path, `.jsonl` replaced by `.model-calls.jsonl`. */
  readonly modelCallsPath: string;
  readonly #file: JsonlFile;
  readonly #sync: boolean;
  #modelCalls: Promise<JsonlFile> | undefined;
  #closed = false;

  private constructor(file: JsonlFile, sync: boolean) {
    this.path = file.path;
    this.modelCallsPath = `${file.path.replace(/\.jsonl$/, '')}.model-calls.jsonl`;
    this.#file = file;
    this.#sync = sync;
  }

  /**
   * The default log of conversation `conversationId`: `conversations/ID.jsonl` in the store's
   * directory (`E_INVALID_ARGUMENT` without a store).
   */
  static inStore(
    store: ArtifactStore | undefined,
    conversationId: string,
    sync = false,
  ): Promise<JsonlConversationLogBackend> {
    if (!store) {
      throw new SpoolforgeError(
        'E_INVALID_ARGUMENT',
        'A ConversationLog needs a store (its log then lives in the store directory) or a backend',
      );
    }
    const path = join(store.directory, 'conversations', `${conversationId}.jsonl`);
    return JsonlConversationLogBackend.open(path, sync ? { sync } : {});
  }

  /** Opens (creating it `0600`, its directory `0700`) the log at `path`. */
  static async open(
    path: string,
    options: JsonlConversationLogOptions = {},
  ): Promise<JsonlConversationLogBackend> {
    const sync = options.sync ?? false;
    const file = await JsonlFile.open(path, { what: 'conversation log', sync });
    return new JsonlConversationLogBackend(file, sync);
  }

  append(events: readonly ConversationEvent[], options: { signal?: AbortSignal } = {}) {
    return this.#file.append(events, options);
  }

  async *readBackward(
    options: { cursor?: string; signal?: AbortSignal } = {},
  ): AsyncIterable<LoggedEvent> {
    for await (const { value, cursor } of this.#file.readBackward(options)) {
      yield { event: value as ConversationEvent, cursor };
    }
  }

  async appendModelCall(record: StoredModelCall, options: { signal?: AbortSignal } = {}) {
    await (await this.#modelCallFile()).append([record], options);
  }

  async *readModelCalls(
    options: { before?: number; signal?: AbortSignal } = {},
  ): AsyncIterable<StoredModelCall> {
    const file = await this.#modelCallFile();
    const reading = file.readBackward(options.signal ? { signal: options.signal } : {});
    for await (const { value } of reading) {
      const record = value as StoredModelCall;
      if (options.before === undefined || record.call < options.before) yield record;
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const modelCalls = await this.#modelCalls?.catch(() => undefined);
    await Promise.all([this.#file.close(), modelCalls?.close()]);
  }

  #modelCallFile(): Promise<JsonlFile> {
    if (this.#closed) {
      return Promise.reject(
        new SpoolforgeError('E_IO', `${this.modelCallsPath}: the log is closed`),
      );
    }
    this.#modelCalls ??= JsonlFile.open(this.modelCallsPath, {
      what: 'model-call log',
      sync: this.#sync,
    });
    // A failed open is tried again on the next use.
    this.#modelCalls.catch(() => {
      this.#modelCalls = undefined;
    });
    return this.#modelCalls;
  }
}
