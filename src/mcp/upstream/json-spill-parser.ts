import { type JSONRPCMessage, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { SpoolforgeError } from '../../shared/spoolforge-error.js';
import type { SpoolWriterOptions } from '../../spool/spool-writer.js';
import { JsonStringDecoder } from './json-string-decoder.js';
import { MessageShape } from './message-shape.js';
import { SkeletonBuffer } from './skeleton-buffer.js';
import { SpillSink } from './spill-sink.js';
import { SPILLED_JSON_KEY, type SpilledValues } from './spilled-values.js';

const newline = 0x0a;
const quote = 0x22;
const backslash = 0x5c;
/** How much of a bad line an error quotes. */
const quoteChars = 200;

/**
 * Options for a {@link JsonSpillParser}.
 *
 * @example
 * ```ts
 * const options: JsonSpillParserOptions = { spilled, onmessage: (message) => console.log(message) };
 * ```
 */
export interface JsonSpillParserOptions {
  /** Where diverted values go; the tokens in emitted messages are its. */
  spilled: SpilledValues;
  /** Receives each message, once the bytes it diverted are written. */
  onmessage: (message: JSONRPCMessage) => void;
  /** Receives each skipped line (`E_MCP_MALFORMED`, `E_MCP_RESULT_TOO_LARGE`, `E_MCP_UPSTREAM`). */
  onerror?: (error: SpoolforgeError) => void;
  /** A string value (or `result.structuredContent`) with more raw bytes is diverted. Default 1 MiB. */
  spillBytes?: number;
  /** A longer message is dropped while read and answered with an error. Default 1 GiB. */
  maxMessageBytes?: number;
  /** Options of the spools diverted values go to. */
  writer?: SpoolWriterOptions;
}

type Outcome =
  | { message: JSONRPCMessage; tokens?: string[] }
  | { error: SpoolforgeError; tokens?: string[] };

/**
 * Splits newline-delimited JSON-RPC from byte chunks into messages, diverting big values as it
 * reads so that a message of hundreds of MB is never one string or Buffer. A string value past
 * `spillBytes` is decoded into a spool and replaced by a token string; `result.structuredContent`
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
  readonly #skeleton = new SkeletonBuffer();
  readonly #shape = new MessageShape();
  #mode: 'keep' | 'overflow' | 'invalid' = 'keep';
  #invalid: SpoolforgeError | undefined;
  #lineBytes = 0;
  #head = '';
  #tokens: string[] = [];
  #inString = false;
  #escaped = false;
  #stringStart = 0;
  #decoder: { decoder: JsonStringDecoder; sink: SpillSink } | undefined;
  #raw: { depth: number; start: number; sink?: SpillSink } | undefined;
  #quoteAt = -1;
  #backslashAt = -1;
  #writes: Promise<void>[] = [];
  #writeError: unknown;
  #outcomes: Outcome[] = [];
  #chain: Promise<void> = Promise.resolve();

  constructor(options: JsonSpillParserOptions) {
    this.#options = options;
    this.#spillBytes = options.spillBytes ?? 1024 * 1024;
    this.#maxMessageBytes = options.maxMessageBytes ?? 1024 * 1024 * 1024;
  }

  /**
   * Reads a chunk. The promise settles once the values it diverted are written and the
   * messages it completed are delivered: wait for it before the next chunk (backpressure).
   */
  write(chunk: Uint8Array): Promise<void> {
    const buffer = Buffer.isBuffer(chunk)
      ? chunk
      : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    this.#quoteAt = -1;
    this.#backslashAt = -1;
    let index = 0;
    while (index < buffer.length) {
      const found = buffer.indexOf(newline, index);
      const end = found === -1 ? buffer.length : found;
      if (this.#head.length < quoteChars) {
        this.#head += buffer.toString('utf8', index, Math.min(end, index + quoteChars));
      }
      this.#lineBytes += end - index;
      if (this.#lineBytes > this.#maxMessageBytes && this.#mode === 'keep') {
        this.#drop('overflow');
      }
      this.#scan(buffer, index, end);
      if (found === -1) break;
      this.#finishMessage();
      index = found + 1;
    }
    return this.#deliver();
  }

  /** Ends the input: a message cut off by it is dropped (its values freed) and reported. */
  end(): Promise<void> {
    if (this.#head.trim() !== '') {
      this.#outcomes.push({
        error: new SpoolforgeError(
          'E_MCP_UPSTREAM',
          `The upstream closed its output in the middle of a message (${this.#lineBytes} bytes dropped): ${quoted(this.#head)}`,
        ),
      });
    }
    this.#drop('invalid');
    this.#reset();
    return this.#deliver();
  }

  #scan(buffer: Buffer, start: number, end: number): void {
    const shape = this.#shape;
    let index = start;
    let run = start;
    while (index < end) {
      if (this.#inString) {
        const close = this.#findClose(buffer, index, end);
        this.#content(buffer, index, close === -1 ? end : close);
        if (close === -1) return;
        this.#closeString(buffer, close);
        index = run = close + 1;
        continue;
      }
      const byte = buffer[index] as number;
      if (byte === quote) {
        this.#out(buffer, run, index + 1);
        run = index + 1;
        this.#openString();
      } else if (shape.isStructural(byte)) {
        const event = shape.step(byte, this.#mode === 'keep' && this.#raw === undefined);
        if (event === 'capture-start') {
          this.#out(buffer, run, index + 1);
          run = index + 1;
          shape.capturing = true;
        } else if (event !== undefined) {
          this.#out(buffer, run, index);
          run = index;
          if (event === 'capture-end') shape.capturing = false;
          else this.#raw = { depth: shape.depth, start: this.#skeleton.length };
        }
        if (this.#raw && shape.depth < this.#raw.depth) {
          this.#out(buffer, run, index + 1);
          run = index + 1;
          this.#finishRaw();
        }
      }
      index += 1;
    }
    this.#out(buffer, run, end);
  }

  /** The closing quote of the open string in `[index, end)`, or -1; escapes carry across chunks. */
  #findClose(buffer: Buffer, index: number, end: number): number {
    let position = index;
    while (position < end) {
      if (this.#escaped) {
        this.#escaped = false;
        position += 1;
        continue;
      }
      if (this.#quoteAt < position) this.#quoteAt = indexOrLength(buffer, quote, position);
      if (this.#backslashAt < position)
        this.#backslashAt = indexOrLength(buffer, backslash, position);
      if (this.#backslashAt < this.#quoteAt && this.#backslashAt < end) {
        position = this.#backslashAt + 1;
        this.#escaped = true;
      } else {
        return this.#quoteAt < end ? this.#quoteAt : -1;
      }
    }
    return -1;
  }

  #openString(): void {
    this.#inString = true;
    this.#stringStart = this.#skeleton.length - 1;
    this.#shape.openString();
  }

  #content(buffer: Buffer, start: number, end: number): void {
    this.#shape.keyContent(buffer, start, end);
    this.#out(buffer, start, end);
  }

  #closeString(buffer: Buffer, close: number): void {
    this.#inString = false;
    const spilling = this.#decoder;
    this.#decoder = undefined;
    if (spilling) {
      const { decoder, sink } = spilling;
      const failure = attempt(() => decoder.end());
      if (failure) {
        sink.release();
        this.#fail(failure);
        return;
      }
      sink.end();
      const token = this.#options.spilled.add('string', sink.writer, sink.byteLength);
      this.#tokens.push(token);
      this.#skeleton.appendText(JSON.stringify(token));
    } else {
      this.#out(buffer, close, close + 1);
    }
    this.#shape.closeString();
  }

  /** Routes `[start, end)` to the skeleton, the open spill, or nowhere (a dropped message). */
  #out(buffer: Buffer, start: number, end: number): void {
    if (start >= end) return;
    this.#shape.capture(buffer, start, end);
    let index = start;
    while (index < end && this.#mode === 'keep') {
      if (this.#decoder) {
        const from = index;
        const failure = attempt(() => this.#decoder?.decoder.write(buffer, from, end));
        if (failure) this.#fail(failure);
        return;
      }
      if (this.#raw?.sink) {
        this.#raw.sink.append(buffer, index, end);
        return;
      }
      const room = this.#room();
      const take = Math.min(end - index, room);
      this.#skeleton.append(buffer, index, index + take);
      index += take;
      if (take === room) this.#divert();
    }
  }

  /** Bytes the skeleton may still take before the value being read passes `spillBytes`. */
  #room(): number {
    const skeleton = this.#skeleton.length;
    if (this.#raw) return this.#spillBytes + 1 - (skeleton - this.#raw.start);
    if (this.#inString && this.#shape.inValueString) {
      return this.#spillBytes + 1 - (skeleton - this.#stringStart - 1);
    }
    return Number.POSITIVE_INFINITY;
  }

  #divert(): void {
    const sink = new SpillSink({ track: (write) => this.#track(write), ...this.#writerOptions() });
    const raw = this.#raw;
    if (raw) {
      sink.append(this.#skeleton.tail(raw.start));
      this.#skeleton.truncate(raw.start);
      raw.sink = sink;
      return;
    }
    const decoder = new JsonStringDecoder(sink);
    this.#decoder = { decoder, sink };
    const failure = attempt(() => decoder.write(this.#skeleton.tail(this.#stringStart + 1)));
    this.#skeleton.truncate(this.#stringStart);
    if (failure) this.#fail(failure);
  }

  #finishRaw(): void {
    const sink = this.#raw?.sink;
    this.#raw = undefined;
    if (!sink || this.#mode !== 'keep') return;
    sink.end();
    const token = this.#options.spilled.add('json', sink.writer, sink.byteLength);
    this.#tokens.push(token);
    this.#skeleton.appendText(`{${JSON.stringify(SPILLED_JSON_KEY)}:${JSON.stringify(token)}}`);
  }

  #finishMessage(): void {
    if (this.#mode === 'overflow') this.#outcomes.push(this.#overflowOutcome());
    else if (this.#mode === 'invalid')
      this.#outcomes.push({ error: this.#malformed(this.#invalid) });
    else if (this.#inString || this.#shape.depth > 0 || this.#skeleton.text().trim() !== '') {
      this.#parseSkeleton();
    }
    this.#drop('invalid');
    this.#reset();
  }

  #parseSkeleton(): void {
    const tokens = this.#tokens;
    this.#tokens = [];
    try {
      const message = JSONRPCMessageSchema.parse(JSON.parse(this.#skeleton.text()));
      this.#outcomes.push({ message, tokens });
    } catch (error) {
      this.#outcomes.push({ error: this.#malformed(error), tokens });
    }
  }

  #overflowOutcome(): Outcome {
    const id = this.#shape.capturedId();
    const text = `upstream result of ${this.#lineBytes} bytes exceeds the limit of ${this.#maxMessageBytes} bytes (--max-result)`;
    // -32603 (internal error): the proxy, not the request, failed; the caller may retry smaller.
    if (id !== undefined && !this.#shape.hasMethod) {
      return { message: { jsonrpc: '2.0', id, error: { code: -32603, message: text } } };
    }
    return { error: new SpoolforgeError('E_MCP_RESULT_TOO_LARGE', `An ${text}; dropped`) };
  }

  #malformed(cause: unknown): SpoolforgeError {
    const reason = cause instanceof Error ? `${cause.message.split('\n')[0]}: ` : '';
    return new SpoolforgeError(
      'E_MCP_MALFORMED',
      `Skipped a line from the upstream that is not a JSON-RPC message (${reason}${quoted(this.#head)})`,
      { cause },
    );
  }

  #fail(error: SpoolforgeError): void {
    this.#invalid = error;
    this.#drop('invalid');
  }

  /** Stops keeping the current message: its spills are freed. */
  #drop(mode: 'overflow' | 'invalid'): void {
    if (this.#mode === 'keep') this.#mode = mode;
    this.#decoder?.sink.release();
    this.#decoder = undefined;
    this.#raw?.sink?.release();
    if (this.#raw) delete this.#raw.sink;
    this.#releaseTokens(this.#tokens);
    this.#tokens = [];
    this.#skeleton.reset();
  }

  #reset(): void {
    this.#mode = 'keep';
    this.#invalid = undefined;
    this.#lineBytes = 0;
    this.#head = '';
    this.#inString = false;
    this.#escaped = false;
    this.#raw = undefined;
    this.#shape.reset();
  }

  #releaseTokens(tokens: readonly string[]): void {
    for (const token of tokens) {
      const value = this.#options.spilled.take(token);
      if (value) this.#track(value.release());
    }
  }

  #track(write: Promise<void>): void {
    this.#writes.push(
      write.then(undefined, (error: unknown) => {
        this.#writeError ??= error;
      }),
    );
  }

  #writerOptions(): { writer?: SpoolWriterOptions } {
    return this.#options.writer ? { writer: this.#options.writer } : {};
  }

  #deliver(): Promise<void> {
    const writes = this.#writes;
    const outcomes = this.#outcomes;
    this.#writes = [];
    this.#outcomes = [];
    const run = this.#chain.then(async () => {
      await Promise.all(writes);
      const failure = this.#writeError;
      this.#writeError = undefined;
      for (const outcome of outcomes) {
        if ('message' in outcome && failure === undefined) {
          this.#options.onmessage(outcome.message);
          continue;
        }
        // A message whose values could not be written is not delivered.
        if (outcome.tokens) this.#releaseTokens(outcome.tokens);
        if ('error' in outcome) this.#options.onerror?.(outcome.error);
      }
      if (failure !== undefined) {
        throw new SpoolforgeError('E_IO', 'Cannot spool a value from the upstream', {
          cause: failure,
        });
      }
    });
    this.#chain = run.catch(() => undefined);
    return run;
  }
}

function indexOrLength(buffer: Buffer, byte: number, from: number): number {
  const found = buffer.indexOf(byte, from);
  return found === -1 ? buffer.length : found;
}

function quoted(text: string): string {
  return JSON.stringify(text.length > quoteChars ? `${text.slice(0, quoteChars)}…` : text);
}

function attempt(run: () => void): SpoolforgeError | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    if (SpoolforgeError.isInstance(error)) return error;
    throw error;
  }
}
