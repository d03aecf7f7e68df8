/** A value an upstream transport diverted from a message into a spool as it arrived. */
export interface SpilledValue {
  /** Bytes: the decoded UTF-8 of a string, or the JSON text of structured content. */
  readonly byteLength: number;
  stream(): AsyncIterable<Uint8Array>;
  /** Frees its memory or temp file. */
  release(): Promise<void>;
}

/**
 * What the proxy needs of the registry a spilling upstream transport keeps: in a message, a
 * diverted string is a token string, and diverted structured content an object whose one
 * property is a token.
 */
export interface SpilledValueRegistry {
  isToken(value: unknown): value is string;
  /** Hands a value over (its taker releases it); `undefined` once taken. */
  take(token: string): SpilledValue | undefined;
  /** A copy of `message` with every token turned back into its value. */
  resolve<Message>(message: Message): Message | Promise<Message>;
}

/**
 * The token standing for diverted structured content (an object of one property whose value is
 * a token), else `undefined`.
 *
 * @example
 * ```ts
 * spilledJsonToken(result.structuredContent, spilled); // the token, or undefined
 * ```
 */
export function spilledJsonToken(
  structured: Record<string, unknown> | undefined,
  spilled: SpilledValueRegistry | undefined,
): string | undefined {
  if (!structured || !spilled) return undefined;
  const values = Object.values(structured);
  const [only] = values;
  return values.length === 1 && spilled.isToken(only) ? only : undefined;
}
