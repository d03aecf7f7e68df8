import { randomBytes } from 'node:crypto';
import { SpoolforgeError } from '../../shared/spoolforge-error.js';
import { readerChunks } from '../../spool/reader-chunks.js';
import type { SpoolReader } from '../../spool/spool-reader.js';
import type { SpoolWriter } from '../../spool/spool-writer.js';

/**
 * The key of the object that stands for a spilled JSON value (`result.structuredContent`):
 * `{ [SPILLED_JSON_KEY]: token }`. It starts with U+0000, which no server puts in a key by
 * accident.
 *
 * @example
 * ```ts
 * const token = structuredContent?.[SPILLED_JSON_KEY];
 * ```
 */
export const SPILLED_JSON_KEY = '\u0000spoolforge-spilled-json';

const tokenPrefix = '\u0000spoolforge-spilled:';
/** What {@link SpilledValues.resolve} turns back into strings at most, by default. */
const defaultResolveBytes = 256 * 1024 * 1024;

/**
 * A value the parser diverted out of a message: a decoded string (`kind: 'string'`, its UTF-8
 * bytes) or raw JSON text (`kind: 'json'`). Whoever {@link SpilledValues.take | takes} it owns it
 * and must `release()` it.
 *
 * @example
 * ```ts
 * const value = spilled.take(token);
 * if (value) {
 *   await store.put(value.stream(), { name: 'upstream result' });
 *   await value.release();
 * }
 * ```
 */
export interface SpilledValue {
  readonly kind: 'string' | 'json';
  /** Bytes of the value: the decoded string's UTF-8, or the JSON text. */
  readonly byteLength: number;
  /** A reader over the bytes; valid until `release()`. */
  reader(): SpoolReader;
  /** The bytes in chunks of up to 1 MiB, read from memory or the temp file. */
  stream(options?: { signal?: AbortSignal }): AsyncIterable<Uint8Array>;
  /** Frees the memory and removes the temp file. Safe to call more than once. */
  release(): Promise<void>;
}

/**
 * The registry behind the tokens a {@link JsonSpillParser} puts in messages in place of big
 * values. A token is a string starting with U+0000 and a random part, so no server sends one
 * by accident.
 *
 * @example
 * ```ts
 * const spilled = new SpilledValues();
 * const text = result.content[0]?.text;
 * if (spilled.isToken(text)) {
 *   const value = spilled.take(text);
 *   // … store value.stream(), then:
 *   await value?.release();
 * }
 * ```
 */
export class SpilledValues {
  readonly #prefix = `${tokenPrefix}${randomBytes(9).toString('base64url')}:`;
  readonly #values = new Map<string, SpilledValue>();
  #next = 0;

  /** How many values wait to be taken. */
  get size(): number {
    return this.#values.size;
  }

  /**
   * Registers a spool of `byteLength` bytes, whose writes may still be queued (its token must
   * not reach a reader before they land); returns its token.
   */
  add(kind: SpilledValue['kind'], writer: SpoolWriter, byteLength: number): string {
    const token = `${this.#prefix}${this.#next++}`;
    const value: SpilledValue = {
      kind,
      byteLength,
      reader: () => writer.reader(),
      stream: (options = {}) =>
        readerChunks(writer.reader(), { chunkSize: 1024 * 1024, ...options }),
      release: () => writer.close(),
    };
    this.#values.set(token, value);
    return token;
  }

  /** True for a token of this registry whose value has not been taken yet. */
  isToken(value: unknown): value is string {
    return typeof value === 'string' && value.startsWith(this.#prefix) && this.#values.has(value);
  }

  /** The token of a `{ [SPILLED_JSON_KEY]: token }` marker of this registry, else `undefined`. */
  markerToken(value: unknown): string | undefined {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    const token = (value as Record<string, unknown>)[SPILLED_JSON_KEY];
    return Object.keys(value).length === 1 && this.isToken(token) ? token : undefined;
  }

  /** A token's value, left in the registry (to measure it or read its first bytes). */
  peek(token: string): SpilledValue | undefined {
    return this.#values.get(token);
  }

  /** Removes the value from the registry and gives it to the caller, who must release it. */
  take(token: string): SpilledValue | undefined {
    const value = this.#values.get(token);
    this.#values.delete(token);
    return value;
  }

  /**
   * A deep copy of `message` with every token turned back into its string and every marker
   * into its parsed JSON, for a message forwarded as it came. The values are taken and
   * released. Past `maxBytes` (default 256 MiB) of spilled bytes it throws
   * `E_ARTIFACT_TOO_LARGE` and leaves the values in place.
   */
  async resolve<T>(message: T, options: { maxBytes?: number } = {}): Promise<T> {
    const maxBytes = options.maxBytes ?? defaultResolveBytes;
    const tokens = this.tokensIn(message);
    const total = tokens.reduce(
      (sum, token) => sum + (this.#values.get(token)?.byteLength ?? 0),
      0,
    );
    if (total > maxBytes) {
      throw new SpoolforgeError(
        'E_ARTIFACT_TOO_LARGE',
        `Cannot resolve ${total} spilled bytes into one message: the limit is ${maxBytes}`,
      );
    }
    const texts = new Map<string, string>();
    for (const token of tokens) {
      const value = this.take(token);
      if (!value) continue;
      const reader = value.reader();
      const bytes = await reader.read(0, await reader.byteLength());
      texts.set(token, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8'));
      await value.release();
    }
    return this.#replace(message, texts) as T;
  }

  /** The tokens (of values not taken yet) anywhere in `message`, markers included. */
  tokensIn(message: unknown): string[] {
    const tokens: string[] = [];
    this.#collect(message, tokens);
    return tokens;
  }

  /** Releases the values of every token left in `message`: for a message dropped or done with. */
  async releaseIn(message: unknown): Promise<void> {
    const values = this.tokensIn(message).map((token) => this.take(token));
    await Promise.all(values.map((value) => value?.release()));
  }

  /** Releases every value not taken. */
  async releaseAll(): Promise<void> {
    const values = [...this.#values.values()];
    this.#values.clear();
    await Promise.all(values.map((value) => value.release()));
  }

  #collect(node: unknown, tokens: string[]): void {
    if (this.isToken(node)) tokens.push(node);
    else if (Array.isArray(node)) for (const item of node) this.#collect(item, tokens);
    else if (typeof node === 'object' && node !== null) {
      const marker = this.markerToken(node);
      if (marker !== undefined) tokens.push(marker);
      else for (const item of Object.values(node)) this.#collect(item, tokens);
    }
  }

  #replace(node: unknown, texts: Map<string, string>): unknown {
    if (typeof node === 'string') return texts.get(node) ?? node;
    if (Array.isArray(node)) return node.map((item) => this.#replace(item, texts));
    if (typeof node !== 'object' || node === null) return node;
    const marker = (node as Record<string, unknown>)[SPILLED_JSON_KEY];
    if (typeof marker === 'string' && texts.has(marker)) return JSON.parse(texts.get(marker) ?? '');
    return Object.fromEntries(
      Object.entries(node).map(([key, item]) => [key, this.#replace(item, texts)]),
    );
  }
}
