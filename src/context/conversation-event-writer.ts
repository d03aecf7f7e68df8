import type { ConversationLogBackend } from './conversation-log-backend.js';
import type { ConversationEvent } from './conversation-message.js';

/** An event as it is asked for: the writer gives it its `seq` and `time`. */
export type UnnumberedEvent<Event extends ConversationEvent> = Event extends unknown
  ? Omit<Event, 'seq' | 'time'>
  : never;

/**
 * Numbers a conversation's events and appends them to its backend, one write at a time, in call
 * order: numbers handed out while an earlier append is in flight would follow events that may
 * never be stored, and land after another writer's. A failed append recorded none of its events,
 * so their numbers are handed out again: a gap would read as a conflict to a backend that checks
 * the sequence. It also tracks the work asked of the log, which {@link settled} waits for.
 *
 * @example
 * ```ts
 * const writer = new ConversationEventWriter(backend, { nextSeq: 0, now: Date.now });
 * const message = { role: 'user' as const, content: 'hi' };
 * await writer.write([{ type: 'message' as const, message }], (events) => console.log(events[0]?.seq));
 * ```
 */
export class ConversationEventWriter {
  readonly #backend: ConversationLogBackend;
  readonly #now: () => number;
  #nextSeq: number;
  #writing: Promise<unknown> = Promise.resolve();
  /** Work asked for and not settled yet. */
  readonly #unsettled = new Set<Promise<unknown>>();

  constructor(backend: ConversationLogBackend, options: { nextSeq: number; now: () => number }) {
    this.#backend = backend;
    this.#nextSeq = options.nextSeq;
    this.#now = options.now;
  }

  /** The sequence number the next event gets. */
  get nextSeq(): number {
    return this.#nextSeq;
  }

  /** Numbers `fields`, appends them once the writes before are done, then `apply`s them. */
  write<Event extends ConversationEvent>(
    fields: UnnumberedEvent<Event>[],
    apply: (events: Event[]) => void,
  ): Promise<Event[]> {
    const written = this.#writing.then(async () => {
      const first = this.#nextSeq;
      const events = fields.map(
        (each) => ({ ...each, seq: this.#nextSeq++, time: this.#now() }) as unknown as Event,
      );
      try {
        await this.#backend.append(events);
      } catch (error) {
        this.#nextSeq = first;
        throw error;
      }
      apply(events);
      return events;
    });
    this.#writing = written.catch(() => undefined);
    return written;
  }

  /** Runs `work`, which {@link settled} waits for. */
  tracked<Result>(work: () => Promise<Result>): Promise<Result> {
    const promise = work();
    this.#unsettled.add(promise);
    const settle = () => this.#unsettled.delete(promise);
    promise.then(settle, settle);
    return promise;
  }

  /** Resolves once the work tracked so far has settled, whether it failed or not. */
  async settled(): Promise<void> {
    await Promise.allSettled(this.#unsettled);
  }
}
