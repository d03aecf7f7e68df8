import type { SpilledValue, SpilledValues } from '../upstream/spilled-values.js';
import { findRawStrings, type RawStringRange, replacedRawStrings } from './raw-json-strings.js';
import { fingerprintOf, type TextFingerprint } from './text-fingerprint.js';

/** Objects nested deeper than this are not searched (a walk of its own stack). */
const maxDepth = 4096;

/** What {@link findRepeatedTexts} looks at. */
export interface RepeatedTextsOptions {
  /** A result's `structuredContent`, or the marker of its diverted raw JSON. */
  structured: unknown;
  /** Text parts that go to the store: strings, or the tokens of diverted ones. */
  texts: readonly string[];
  spilled?: SpilledValues | undefined;
  /** Structured content with its repeats replaced comes back parsed up to this size, else as JSON to store. */
  maxInlineBytes: number;
  signal?: AbortSignal | undefined;
}

/** Structured content some of whose strings repeat a text part. */
export interface RepeatedTexts {
  /**
   * The structured content with each repeated string replaced by `text`: the value, or past
   * `maxInlineBytes` its JSON text to store. Takes (and frees) a diverted value.
   */
  replace(text: string): Promise<{ value: unknown } | { json: AsyncIterable<Uint8Array | string> }>;
}

/**
 * Finds the string values of structured content, at any depth, that are one of the texts:
 * servers such as the reference filesystem server send a file both as a text part and as
 * `structuredContent: { content: text }`. Diverted values are compared by UTF-8 length and
 * SHA-256, read from their spools a chunk at a time, never held whole. `undefined` when no
 * string repeats one.
 *
 * @example
 * ```ts
 * const repeats = await findRepeatedTexts({ structured, texts, spilled, maxInlineBytes: 1024 });
 * const replaced = await repeats?.replace(handleText);
 * ```
 */
export async function findRepeatedTexts(
  options: RepeatedTextsOptions,
): Promise<RepeatedTexts | undefined> {
  const { structured, spilled, signal } = options;
  const texts = options.texts.map((text) => spilled?.peek(text) ?? text);
  if (texts.length === 0) return undefined;
  const marker = spilled?.markerToken(structured);
  const raw = marker === undefined ? undefined : spilled?.peek(marker);
  if (marker !== undefined && raw !== undefined && spilled !== undefined) {
    const shortest = Math.min(...texts.map(utf8Length));
    // Quotes and braces around it: raw JSON shorter than that cannot hold the text.
    if (raw.byteLength < shortest + 2) return undefined;
    const prints = await Promise.all(texts.map((text) => fingerprintOf(text, signal)));
    const ranges = await findRawStrings(raw.reader(), prints, signal);
    if (!ranges?.length) return undefined;
    return { replace: (text) => replaceRaw(spilled, marker, raw, ranges, text, options) };
  }
  const repeated = await repeatedStrings(structured, texts, signal);
  if (repeated.size === 0) return undefined;
  return {
    replace: async (text) => {
      const value = replaced(structured, repeated, text);
      const json = JSON.stringify(value);
      if (Buffer.byteLength(json) <= options.maxInlineBytes) return { value };
      return {
        json: (async function* () {
          yield JSON.stringify(value, null, 2);
        })(),
      };
    },
  };
}

async function replaceRaw(
  spilled: SpilledValues,
  marker: string,
  raw: SpilledValue,
  ranges: readonly RawStringRange[],
  text: string,
  options: RepeatedTextsOptions,
): Promise<{ value: unknown } | { json: AsyncIterable<Uint8Array | string> }> {
  spilled.take(marker);
  const removed = ranges.reduce((sum, range) => sum + range.end - range.start, 0);
  const size = raw.byteLength - removed + ranges.length * Buffer.byteLength(JSON.stringify(text));
  const json = replacedRawStrings(raw.reader(), ranges, text);
  if (size > options.maxInlineBytes) {
    return {
      json: (async function* () {
        try {
          yield* json;
        } finally {
          await raw.release();
        }
      })(),
    };
  }
  try {
    const pieces: Buffer[] = [];
    for await (const piece of json) pieces.push(Buffer.from(piece));
    return { value: JSON.parse(Buffer.concat(pieces).toString('utf8')) };
  } finally {
    await raw.release();
  }
}

/** The strings of `structured` equal to one of `texts`. */
async function repeatedStrings(
  structured: unknown,
  texts: readonly (string | SpilledValue)[],
  signal: AbortSignal | undefined,
): Promise<Set<string>> {
  const inMemory = new Set(texts.filter((text) => typeof text === 'string'));
  const spilledTexts = texts.filter((text) => typeof text !== 'string');
  const lengths = new Set(spilledTexts.map((text) => text.byteLength));
  const candidates: string[] = [];
  walk(structured, 0, (value) => {
    if (inMemory.has(value) || lengths.has(Buffer.byteLength(value))) candidates.push(value);
  });
  const repeated = new Set(candidates.filter((value) => inMemory.has(value)));
  if (spilledTexts.length === 0 || candidates.length === repeated.size) return repeated;
  const prints = await Promise.all(spilledTexts.map((text) => fingerprintOf(text, signal)));
  const digests = new Set(prints.map((print: TextFingerprint) => print.digest));
  for (const value of candidates) {
    if (!repeated.has(value) && digests.has((await fingerprintOf(value)).digest))
      repeated.add(value);
  }
  return repeated;
}

function walk(node: unknown, depth: number, visit: (value: string) => void): void {
  if (typeof node === 'string') visit(node);
  else if (typeof node === 'object' && node !== null && depth < maxDepth) {
    for (const item of Object.values(node)) walk(item, depth + 1, visit);
  }
}

function replaced(node: unknown, repeated: Set<string>, text: string): unknown {
  if (typeof node === 'string') return repeated.has(node) ? text : node;
  if (Array.isArray(node)) return node.map((item) => replaced(item, repeated, text));
  if (typeof node !== 'object' || node === null) return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, item]) => [key, replaced(item, repeated, text)]),
  );
}

function utf8Length(text: string | SpilledValue): number {
  return typeof text === 'string' ? Buffer.byteLength(text) : text.byteLength;
}
