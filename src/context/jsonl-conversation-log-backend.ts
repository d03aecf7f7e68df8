import { type FileHandle, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { SpoolforgeError, throwIfAborted } from '../shared/spoolforge-error.js';
import { writeFully } from '../spool/file-io.js';
import { PooledFile } from '../spool/pooled-file.js';
import type { ArtifactStore } from '../store/artifact-store.js';
import type { ConversationLogBackend, LoggedEvent } from './conversation-log-backend.js';
import type { ConversationEvent } from './conversation-message.js';

const blockSize = 64 * 1024;
const newline = 0x0a;

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
 * a process holds at most 64 such files open however many conversations it keeps open.
 *
 * @example
 * ```ts
 * const backend = await JsonlConversationLogBackend.open('/var/lib/agent/conversations/c1.jsonl');
 * const log = await ConversationLog.open({ backend });
 * ```
 */
export class JsonlConversationLogBackend implements ConversationLogBackend {
  readonly path: string;
  readonly #file: PooledFile;
  readonly #sync: boolean;
  #size: number;
  #closed = false;
  /** Appends run one at a time, in call order. */
  #appending: Promise<void> = Promise.resolve();

  private constructor(path: string, file: PooledFile, size: number, sync: boolean) {
    this.path = path;
    this.#file = file;
    this.#size = size;
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
    const cannotOpen = (error: unknown) => {
      throw new SpoolforgeError('E_IO', `Cannot open the conversation log ${path}`, {
        cause: error,
      });
    };
    await mkdir(dirname(path), { recursive: true, mode: 0o700 }).catch(cannotOpen);
    // Created by the first open; reopened without creating, so a log moved away meanwhile
    // fails its append instead of starting again empty.
    const file = new PooledFile(path, { flags: 'a+', reopenFlags: 'r+', mode: 0o600 });
    try {
      const size = await file.use(async (handle) => {
        const length = (await handle.stat()).size;
        const complete = await completeLength(handle, length);
        if (complete !== length) await handle.truncate(complete);
        return complete;
      });
      return new JsonlConversationLogBackend(path, file, size, options.sync ?? false);
    } catch (error) {
      await file.close();
      return cannotOpen(error);
    }
  }

  append(events: readonly ConversationEvent[], options: { signal?: AbortSignal } = {}) {
    if (this.#closed) {
      return Promise.reject(new SpoolforgeError('E_IO', `${this.path}: the log is closed`));
    }
    // Appends made before close() still land: close waits for them.
    const appended = this.#appending.then(async () => {
      throwIfAborted(options.signal);
      const bytes = Buffer.from(events.map((event) => `${JSON.stringify(event)}\n`).join(''));
      try {
        await this.#file.use(async (handle) => {
          await writeFully(handle, bytes, this.#size);
          if (this.#sync) await handle.datasync();
        });
      } catch (error) {
        // Part of a batch (a full disk) must not stay: the next append would follow a torn line.
        await this.#file.use((handle) => handle.truncate(this.#size)).catch(() => undefined);
        throw new SpoolforgeError('E_IO', `${this.path}: cannot append to the log`, {
          cause: error,
        });
      }
      this.#size += bytes.length;
    });
    this.#appending = appended.catch(() => undefined);
    return appended;
  }

  async *readBackward(
    options: { cursor?: string; signal?: AbortSignal } = {},
  ): AsyncIterable<LoggedEvent> {
    await this.#appending;
    if (this.#closed) throw new SpoolforgeError('E_IO', `${this.path}: the log is closed`);
    let end = options.cursor === undefined ? this.#size : Number(options.cursor);
    if (!Number.isSafeInteger(end) || end < 0 || end > this.#size) {
      throw new SpoolforgeError(
        'E_INVALID_ARGUMENT',
        `Not a cursor of this log: ${options.cursor}`,
      );
    }
    if (end === 0) return;
    // Every line ends with a newline: the line before `end` ends at `end - 1`. `parts` holds
    // the bytes already read of the line being assembled (it straddles a block boundary).
    let parts: Buffer[] = [];
    let lineEnd = end - 1;
    while (end > 0) {
      throwIfAborted(options.signal);
      const start = Math.max(0, end - blockSize);
      const block = Buffer.alloc(end - start);
      await this.#file.use((handle) => handle.read(block, 0, block.length, start));
      for (let relativeEnd = lineEnd - start; ; ) {
        const index = relativeEnd > 0 ? block.lastIndexOf(newline, relativeEnd - 1) : -1;
        if (index < 0) {
          parts.unshift(block.subarray(0, relativeEnd));
          break;
        }
        const lineStart = start + index + 1;
        const line = Buffer.concat([block.subarray(index + 1, relativeEnd), ...parts]);
        parts = [];
        yield { event: this.#parse(line, lineStart), cursor: String(lineStart) };
        relativeEnd = index;
      }
      lineEnd = start;
      end = start;
    }
    // The file's first line: no newline before it.
    yield { event: this.#parse(Buffer.concat(parts), 0), cursor: '0' };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#appending;
    await this.#file.close();
  }

  #parse(line: Buffer, offset: number): ConversationEvent {
    try {
      return JSON.parse(line.toString('utf8')) as ConversationEvent;
    } catch (error) {
      throw new SpoolforgeError(
        'E_LOG_DAMAGED',
        `${this.path}: the line at byte ${offset} is not a JSON event`,
        { cause: error },
      );
    }
  }
}

/** The length up to the last complete line: a crash can leave a torn final line. */
async function completeLength(handle: FileHandle, size: number): Promise<number> {
  let end = size;
  while (end > 0) {
    const start = Math.max(0, end - blockSize);
    const block = Buffer.alloc(end - start);
    await handle.read(block, 0, block.length, start);
    const last = block.lastIndexOf(newline);
    if (last >= 0) return start + last + 1;
    end = start;
  }
  return 0;
}
