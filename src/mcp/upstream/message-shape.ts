/** Keys are compared only up to this length: the ones that matter are short. */
const keyChars = 32;
/** An `id` longer than this is not kept (JSON-RPC ids are short). */
const idChars = 1024;

/**
 * What a structural byte means to the parser: the top-level `id` value starts or ends (its
 * bytes are captured even while a message is dropped), or `result.structuredContent` starts.
 *
 * @example
 * ```ts
 * const event: ShapeEvent = shape.step(0x3a, true); // after "id" → 'capture-start'
 * ```
 */
export type ShapeEvent = 'capture-start' | 'capture-end' | 'raw-start' | undefined;

/**
 * Follows the nesting of one JSON-RPC message byte by byte (strings are skipped by the
 * caller), knowing just enough of it: whether a string is a key, the keys at the top level and
 * inside `result`, and where the top-level `id` value lies.
 *
 * @example
 * ```ts
 * const shape = new MessageShape();
 * for (const byte of Buffer.from('{}')) shape.step(byte, true);
 * shape.depth; // 0
 * ```
 */
export class MessageShape {
  /** Set while the bytes routed are those of the top-level `id` value. */
  capturing = false;
  /** True once a top-level `method` key was read: a request or notification, not a response. */
  hasMethod = false;
  #stack: boolean[] = [];
  #expectKey = false;
  #stringIsKey = false;
  #key = '';
  #topKey: string | undefined;
  #resultKey: string | undefined;
  #inResult = false;
  #id = '';

  /** Containers open around the current byte. */
  get depth(): number {
    return this.#stack.length;
  }

  /**
   * True while the open string is a value inside a response's `result`: the only strings
   * diverted. A request's, a notification's or an error's strings are forwarded as they are,
   * and a proxy could not find a token inside an error's message.
   */
  get inResultValueString(): boolean {
    return !this.#stringIsKey && this.#inResult;
  }

  /** True for `{ } [ ] : ,`. */
  isStructural(byte: number): boolean {
    return (
      byte === 0x7b ||
      byte === 0x7d ||
      byte === 0x5b ||
      byte === 0x5d ||
      byte === 0x3a ||
      byte === 0x2c
    );
  }

  /** Takes a structural byte; `allowRaw` says whether `structuredContent` may start a raw diversion. */
  step(byte: number, allowRaw: boolean): ShapeEvent {
    const depth = this.#stack.length;
    if (byte === 0x7b || byte === 0x5b) {
      const value = !this.#expectKey;
      const raw =
        allowRaw &&
        value &&
        depth === 2 &&
        this.#inResult &&
        this.#resultKey === 'structuredContent';
      const entersResult = byte === 0x7b && value && depth === 1 && this.#topKey === 'result';
      this.#stack.push(byte === 0x7b);
      this.#expectKey = byte === 0x7b;
      if (entersResult) this.#inResult = true;
      return raw ? 'raw-start' : undefined;
    }
    if (byte === 0x7d || byte === 0x5d) {
      const event = depth === 1 && this.capturing ? 'capture-end' : undefined;
      this.#stack.pop();
      this.#expectKey = false;
      if (this.#stack.length <= 1) {
        this.#inResult = false;
        this.#resultKey = undefined;
      }
      return event;
    }
    if (byte === 0x3a) {
      this.#expectKey = false;
      return depth === 1 && this.#topKey === 'id' && !this.capturing ? 'capture-start' : undefined;
    }
    this.#expectKey = this.#stack[depth - 1] === true;
    return depth === 1 && this.capturing ? 'capture-end' : undefined;
  }

  /** A string opens (after its quote). */
  openString(): void {
    this.#stringIsKey = this.#expectKey && this.#stack[this.#stack.length - 1] === true;
    this.#key = '';
  }

  /** Raw content of the open string; kept only for a short key. */
  keyContent(buffer: Buffer, start: number, end: number): void {
    if (!this.#stringIsKey || this.#key.length > keyChars) return;
    this.#key += buffer.toString('latin1', start, Math.min(end, start + keyChars + 1));
  }

  /** The open string closes. */
  closeString(): void {
    if (!this.#stringIsKey) return;
    const key = this.#key.length > keyChars ? '' : this.#key;
    if (this.#stack.length === 1) {
      this.#topKey = key;
      if (key === 'method') this.hasMethod = true;
    } else if (this.#stack.length === 2 && this.#inResult) {
      this.#resultKey = key;
    }
  }

  /** Bytes routed while {@link MessageShape.capturing}: the `id` value's text. */
  capture(buffer: Buffer, start: number, end: number): void {
    if (!this.capturing || this.#id.length > idChars) return;
    this.#id += buffer.toString('utf8', start, Math.min(end, start + idChars + 1));
  }

  /** The top-level `id` if it was a string or number of sane length. */
  capturedId(): string | number | undefined {
    if (this.#id.length > idChars) return undefined;
    try {
      const id: unknown = JSON.parse(this.#id);
      return typeof id === 'string' || typeof id === 'number' ? id : undefined;
    } catch {
      return undefined;
    }
  }

  /** Forgets the message. */
  reset(): void {
    this.capturing = false;
    this.hasMethod = false;
    this.#stack = [];
    this.#expectKey = false;
    this.#stringIsKey = false;
    this.#topKey = undefined;
    this.#resultKey = undefined;
    this.#inResult = false;
    this.#id = '';
  }
}
