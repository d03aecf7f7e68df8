import type { ToolEvent } from './tool-event.js';

/**
 * Options for a {@link ToolEventQueue}.
 */
export interface ToolEventQueueOptions {
  /** Events held for a reader that is behind. Default 1,024. */
  maxEvents?: number;
}

/**
 * A session's tool events as an async iterable, with a bound: `push` is the session's
 * `onEvent`; a reader behind by `maxEvents` loses the oldest `progress` and `output` events
 * first (then the oldest events), never blocks a tool, and `dropped` counts what it lost.
 * `close()` ends the iteration once the held events are read.
 *
 * @example
 * ```ts
 * const events = new ToolEventQueue();
 * const session = new ToolSession({ tools: [runBuild], store, onEvent: events.push });
 * for await (const event of uiToolEvents(events, { store })) sendToBrowser(event);
 * ```
 */
export class ToolEventQueue implements AsyncIterable<ToolEvent> {
  readonly #maxEvents: number;
  readonly #held: ToolEvent[] = [];
  #waiting: ((result: IteratorResult<ToolEvent>) => void) | undefined;
  #closed = false;
  /** Events lost because the reader was `maxEvents` behind. */
  dropped = 0;

  constructor(options: ToolEventQueueOptions = {}) {
    this.#maxEvents = Math.max(1, options.maxEvents ?? 1024);
  }

  /** Queues an event (a bound function: pass it as `onEvent`). Ignored once closed. */
  readonly push = (event: ToolEvent): void => {
    if (this.#closed) return;
    const waiting = this.#waiting;
    if (waiting !== undefined) {
      this.#waiting = undefined;
      waiting({ value: event, done: false });
      return;
    }
    if (this.#held.length >= this.#maxEvents) {
      const transient = this.#held.findIndex(
        (held) => held.type === 'progress' || held.type === 'output',
      );
      this.#held.splice(Math.max(0, transient), 1);
      this.dropped++;
    }
    this.#held.push(event);
  };

  /** Ends the iteration after the events held now. */
  close(): void {
    this.#closed = true;
    this.#waiting?.({ value: undefined, done: true });
    this.#waiting = undefined;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<ToolEvent> {
    for (;;) {
      const next = this.#held.shift();
      if (next !== undefined) {
        yield next;
        continue;
      }
      if (this.#closed) return;
      const result = await new Promise<IteratorResult<ToolEvent>>((resolve) => {
        this.#waiting = resolve;
      });
      if (result.done) return;
      yield result.value;
    }
  }
}
