import type { SpoolforgeError } from '../../shared/spoolforge-error.js';
import { DeliveryQueue } from './delivery-queue.js';
import type { JsonSpillParserOptions } from './json-spill-parser-options.js';
import {
  abandonedMessage,
  type DroppedLine,
  droppedLineOutcome,
  quoteChars,
  skeletonOutcome,
  tornMessage,
} from './line-outcomes.js';
import { MessageShape } from './message-shape.js';
import { SkeletonBuffer } from './skeleton-buffer.js';
import { SpillMemoryBudget } from './spill-memory-budget.js';
import { SpillSink } from './spill-sink.js';
import { SpillableRawValue } from './spillable-raw-value.js';
import { SpillableString } from './spillable-string.js';
import { SPILLED_JSON_KEY, type SpilledValue } from './spilled-values.js';

export type { JsonSpillParserOptions } from './json-spill-parser-options.js';

const newline = 0x0a;
const quote = 0x22;

/**
 * Splits newline-delimited JSON-RPC from byte chunks into messages, diverting big values as it
 * reads so that a message of hundreds of MB is never one string or Buffer. A string value past
 * `spillBytes` inside a response's `result` is decoded into a spool and replaced by a token string; `result.structuredContent`
 * past it is kept as raw JSON text in a spool and replaced by `{ [SPILLED_JSON_KEY]: token }`.
 * What is left, a small "skeleton" of the message, goes through `JSON.parse`.
 *
 * @example
 * ```ts
 * const spilled = new SpilledValues();
 * const parser = new JsonSpillParser({ spilled, onmessage: (message) => console.log(message) });
 * await parser.write(Buffer.from('{"jsonrpc":"2.0","id":1,"result":{}}\n'));
 * await parser.end();
 * ```
 */
export class JsonSpillParser {
  readonly #options: JsonSpillParserOptions;
  readonly #spillBytes: number;
  readonly #maxMessageBytes: number;
  readonly #maxSkeletonBytes: number;
  readonly #spillMemory: SpillMemoryBudget;
  readonly #skeleton = new SkeletonBuffer();
  readonly #shape = new MessageShape();
  /** Why the current message is no longer kept; undefined while it is. */
  #dropped: DroppedLine | undefined;
  #lineBytes = 0;
  #head = '';
  #tokens: string[] = [];
  readonly #string = new SpillableString();
  readonly #raw = new SpillableRawValue();
  readonly #queue: DeliveryQueue;

  constructor(options: JsonSpillParserOptions) {
    this.#options = options;
    this.#spillBytes = options.spillBytes ?? 1024 * 1024;
    this.#maxMessageBytes = options.maxMessageBytes ?? 1024 * 1024 * 1024;
    this.#maxSkeletonBytes = options.maxSkeletonBytes ?? 64 * 1024 * 1024;
    this.#queue = new DeliveryQueue(options);
    this.#spillMemory = new SpillMemoryBudget(options);
  }

  /**
   * Reads a chunk. The promise settles once the values it diverted are written and the
   * messages it completed are delivered: wait for it before the next chunk (backpressure).
   */
  write(chunk: Uint8Array): Promise<void> {
    const buffer = Buffer.isBuffer(chunk)
      ? chunk
      : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    this.#string.newChunk();
    let index = 0;
    while (index < buffer.length) {
      const found = buffer.indexOf(newline, index);
      const end = found === -1 ? buffer.length : found;
      if (this.#head.length < quoteChars) {
        this.#head += buffer.toString('utf8', index, Math.min(end, index + quoteChars));
      }
      this.#lineBytes += end - index;
      if (this.#lineBytes > this.#maxMessageBytes && !this.#dropped) {
        this.#drop({ overflow: { limit: this.#maxMessageBytes } });
      }
      this.#scan(buffer, index, end);
      if (found === -1) break;
      this.#finishMessage();
      index = found + 1;
    }
    return this.#queue.flush();
  }

  /** Ends the input: a message cut off by it is dropped (its values freed) and reported. */
  end(): Promise<void> {
    return this.#dropLine(tornMessage);
  }

  /** Whether part of a line has been read and not its end. */
  get midLine(): boolean {
    return this.#lineBytes > 0;
  }

  /**
   * Drops the line read in part (its values freed) and reports it: the next byte starts a new
   * line. For a message the server tore and went on from (it answers the next request right
   * after the torn half), which would otherwise take the next answer down with it.
   */
  discardLine(): Promise<void> {
    return this.#dropLine(abandonedMessage);
  }

  /**
   * Drops the line being read because its values could not be spooled (`error`, a full disk):
   * the rest of it is skipped, and once it ends a response becomes a JSON-RPC error for its
   * request saying why; the lines after it are read as usual.
   */
  failLine(error: SpoolforgeError): void {
    // A line that spilled nothing yet was not what failed: its own spills are still to come.
    const spilling = this.#tokens.length > 0 || this.#string.diverted || this.#raw.diverted;
    if (!this.midLine || !spilling) return;
    this.#drop({ failure: error });
  }

  #dropLine(report: (head: string, bytes: number) => SpoolforgeError): Promise<void> {
    if (this.#head.trim() !== '') this.#queue.push({ error: report(this.#head, this.#lineBytes) });
    this.#drop({ invalid: undefined });
    this.#reset();
    return this.#queue.flush();
  }

  #scan(buffer: Buffer, start: number, end: number): void {
    const shape = this.#shape;
    let index = start;
    let run = start;
    while (index < end) {
      if (this.#string.inside) {
        const close = this.#string.findEnd(buffer, index, end);
        const contentEnd = close === -1 ? end : close;
        shape.keyContent(buffer, index, contentEnd);
        this.#out(buffer, index, contentEnd);
        if (close === -1) return;
        this.#closeString(buffer, close);
        index = run = close + 1;
        continue;
      }
      const byte = buffer[index] as number;
      if (byte === quote) {
        this.#out(buffer, run, index + 1);
        run = index + 1;
        this.#string.open(this.#skeleton.length - 1);
        shape.openString();
      } else if (shape.isStructural(byte)) {
        const event = shape.step(byte, !this.#dropped && !this.#raw.inside);
        if (event === 'capture-start') {
          this.#out(buffer, run, index + 1);
          run = index + 1;
          shape.capturing = true;
        } else if (event !== undefined) {
          this.#out(buffer, run, index);
          run = index;
          if (event === 'capture-end') shape.capturing = false;
          else this.#raw.open(shape.depth, this.#skeleton.length);
        }
        if (this.#raw.closesAt(shape.depth)) {
          this.#out(buffer, run, index + 1);
          run = index + 1;
          this.#finishRaw();
        }
      }
      index += 1;
    }
    this.#out(buffer, run, end);
  }

  /** The open string ends at `close`: its quote goes out, or its spill's token in its place. */
  #closeString(buffer: Buffer, close: number): void {
    const closed = this.#string.close();
    if (!closed) this.#out(buffer, close, close + 1);
    else if ('sink' in closed)
      this.#skeleton.appendText(JSON.stringify(this.#keep('string', closed.sink)));
    else {
      this.#fail(closed.failure);
      return;
    }
    this.#shape.closeString();
  }

  /** Routes `[start, end)` to the skeleton, the open spill, or nowhere (a dropped message). */
  #out(buffer: Buffer, start: number, end: number): void {
    if (start >= end) return;
    this.#shape.capture(buffer, start, end);
    let index = start;
    while (index < end && !this.#dropped) {
      if (this.#string.diverted) {
        const failure = this.#string.write(buffer, index, end);
        if (failure) this.#fail(failure);
        return;
      }
      if (this.#raw.diverted) {
        this.#raw.append(buffer, index, end);
        return;
      }
      const room = this.#room();
      const take = Math.min(end - index, room);
      if (this.#skeleton.length + take > this.#maxSkeletonBytes) {
        this.#drop({ overflow: { limit: this.#maxSkeletonBytes, skeleton: true } });
        return;
      }
      this.#skeleton.append(buffer, index, index + take);
      index += take;
      if (take === room) this.#divert();
    }
  }

  /** Bytes the skeleton may still take before the value being read passes `spillBytes`. */
  #room(): number {
    const skeleton = this.#skeleton.length;
    if (this.#raw.inside) return this.#spillBytes + 1 - (skeleton - this.#raw.start);
    if (this.#string.inside && this.#shape.inResultValueString) {
      return this.#spillBytes + 1 - (skeleton - this.#string.start - 1);
    }
    return Number.POSITIVE_INFINITY;
  }

  #divert(): void {
    const sink = new SpillSink({
      track: (write) => this.#queue.track(write),
      writer: { ...this.#options.writer, memoryThreshold: this.#spillMemory.next() },
    });
    if (this.#raw.inside) {
      this.#raw.divert(sink, this.#skeleton.tail(this.#raw.start));
      this.#skeleton.truncate(this.#raw.start);
      return;
    }
    const start = this.#string.start;
    const failure = this.#string.divert(sink, this.#skeleton.tail(start + 1));
    this.#skeleton.truncate(start);
    if (failure) this.#fail(failure);
  }

  #finishRaw(): void {
    const sink = this.#raw.close();
    if (!sink || this.#dropped) return;
    const token = this.#keep('json', sink);
    this.#skeleton.appendText(`{${JSON.stringify(SPILLED_JSON_KEY)}:${JSON.stringify(token)}}`);
  }

  /** Ends a spill and registers it: the token the message carries in its place. */
  #keep(kind: SpilledValue['kind'], sink: SpillSink): string {
    sink.end();
    const token = this.#options.spilled.add(kind, sink.writer, sink.byteLength);
    this.#tokens.push(token);
    return token;
  }

  #finishMessage(): void {
    const shape = this.#shape;
    if (this.#dropped) {
      const line = { id: shape.capturedId(), hasMethod: shape.hasMethod, head: this.#head };
      this.#queue.push(droppedLineOutcome(this.#dropped, { ...line, bytes: this.#lineBytes }));
    } else if (this.#string.inside || shape.depth > 0 || !this.#skeleton.isBlank()) {
      this.#queue.push(skeletonOutcome(this.#head, this.#skeleton.text(), this.#tokens));
      this.#tokens = [];
    }
    this.#drop({ invalid: undefined });
    this.#reset();
  }

  #fail(error: SpoolforgeError): void {
    this.#drop({ invalid: error });
  }

  /** Stops keeping the current message: its spills are freed. */
  #drop(reason: DroppedLine): void {
    this.#dropped ??= reason;
    this.#string.release();
    this.#raw.release();
    this.#queue.release(this.#tokens);
    this.#tokens = [];
    this.#skeleton.reset();
  }

  #reset(): void {
    this.#dropped = undefined;
    this.#lineBytes = 0;
    this.#spillMemory.reset();
    this.#head = '';
    this.#string.reset();
    this.#raw.reset();
    this.#shape.reset();
  }
}
