import { SpoolforgeError, throwIfAborted } from '../../shared/spoolforge-error.js';
import type { SpoolReader } from '../../spool/spool-reader.js';
import { JsonStringDecoder } from '../upstream/json-string-decoder.js';
import { StringEndFinder } from '../upstream/string-end-finder.js';
import { FingerprintSink, type TextFingerprint } from './text-fingerprint.js';

/** Where a string value lies in raw JSON text: its bytes `[start, end)`, quotes included. */
export interface RawStringRange {
  start: number;
  end: number;
}

/** Nesting past this is not searched: the stack of containers stays small. */
const maxDepth = 4096;
/** Strings past this many matches stay as they are (still correct, only not shared). */
const maxMatches = 1024;
const readBytes = 1024 * 1024;

/**
 * The string values (not keys) of the raw JSON text in `reader` whose decoded text has one of
 * the `wanted` fingerprints, read in chunks of 1 MiB: memory stays flat whatever the size.
 * `undefined` for text that is not JSON this can follow (a bad escape, nesting past 4,096).
 *
 * @example
 * ```ts
 * const ranges = await findRawStrings(value.reader(), [await fingerprintOf(text)]);
 * ```
 */
export async function findRawStrings(
  reader: SpoolReader,
  wanted: readonly TextFingerprint[],
  signal?: AbortSignal,
): Promise<RawStringRange[] | undefined> {
  const sink = new FingerprintSink(wanted);
  const ends = new StringEndFinder();
  const containers: boolean[] = []; // true: an object
  const found: RawStringRange[] = [];
  let expectKey = false;
  let open: { start: number; decoder: JsonStringDecoder | undefined } | undefined;
  const length = await reader.byteLength();
  try {
    for (let offset = 0; offset < length; offset += readBytes) {
      throwIfAborted(signal);
      const chunk = Buffer.from(await reader.read(offset, Math.min(readBytes, length - offset)));
      ends.newChunk();
      let index = 0;
      while (index < chunk.length) {
        if (open) {
          const close = ends.find(chunk, index, chunk.length);
          open.decoder?.write(chunk, index, close === -1 ? chunk.length : close);
          if (close === -1) break;
          open.decoder?.end();
          if (open.decoder && sink.matched() && found.length < maxMatches) {
            found.push({ start: open.start, end: offset + close + 1 });
          }
          open = undefined;
          index = close + 1;
          continue;
        }
        const byte = chunk[index] as number;
        if (byte === 0x22) {
          const key = expectKey && containers.at(-1) === true;
          sink.reset();
          open = { start: offset + index, decoder: key ? undefined : new JsonStringDecoder(sink) };
        } else if (byte === 0x7b || byte === 0x5b) {
          containers.push(byte === 0x7b);
          if (containers.length > maxDepth) return undefined;
          expectKey = byte === 0x7b;
        } else if (byte === 0x7d || byte === 0x5d) {
          containers.pop();
          expectKey = false;
        } else if (byte === 0x3a) expectKey = false;
        else if (byte === 0x2c) expectKey = containers.at(-1) === true;
        index += 1;
      }
    }
  } catch (error) {
    if (SpoolforgeError.isInstance(error) && error.code === 'E_MCP_MALFORMED') return undefined;
    throw error;
  }
  return found;
}

/**
 * The raw JSON text in `reader` with each of `ranges` (in order, not overlapping) replaced by
 * `text` as a JSON string, read in chunks of 1 MiB.
 *
 * @example
 * ```ts
 * await store.put(replacedRawStrings(value.reader(), ranges, handleText));
 * ```
 */
export async function* replacedRawStrings(
  reader: SpoolReader,
  ranges: readonly RawStringRange[],
  text: string,
): AsyncIterable<Uint8Array | string> {
  const replacement = JSON.stringify(text);
  let position = 0;
  const upTo = async function* (end: number) {
    for (; position < end; position += Math.min(readBytes, end - position)) {
      yield await reader.read(position, Math.min(readBytes, end - position));
    }
  };
  for (const range of ranges) {
    yield* upTo(range.start);
    yield replacement;
    position = range.end;
  }
  yield* upTo(await reader.byteLength());
}
