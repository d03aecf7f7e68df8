import { SpoolforgeError } from '../../shared/spoolforge-error.js';
import type { SpoolReader } from '../../spool/spool-reader.js';
import { isWhitespace, openBrace, openBracket, scalarType } from './json-bytes.js';
import type { JsonEntrySpan, JsonType } from './json-scan-types.js';
import { JsonStructureScanner } from './json-structure-scanner.js';
import { scanJsonStructure } from './scan-json-structure.js';

/** A value's bytes `[start, end)` in the document, and its type (from its first byte). */
export interface JsonValueSpan {
  start: number;
  end: number;
  type: JsonType;
}

/**
 * What one scan of a container learned, by byte offsets: the member a segment names (with its
 * neighbours, whose separators an edit copies), the first and the last two members, the count,
 * and the keys of an object that `keys` asked about.
 */
export interface JsonContainerScan {
  span: JsonValueSpan;
  count: number;
  member?: JsonEntrySpan;
  before?: JsonEntrySpan;
  after?: JsonEntrySpan;
  first?: JsonEntrySpan;
  last?: JsonEntrySpan;
  beforeLast?: JsonEntrySpan | undefined;
  /** Of the keys asked about, those the object has. */
  present: string[];
}

const containerType = (byte: number): JsonType | undefined =>
  byte === openBracket ? 'array' : byte === openBrace ? 'object' : undefined;

/**
 * The span of the whole document's value: from its first byte to its last, without the
 * whitespace (or byte order mark) around it.
 */
export async function rootSpan(
  reader: SpoolReader,
  byteLength: number,
  signal?: AbortSignal,
): Promise<JsonValueSpan> {
  const options = signal ? { signal } : {};
  const head = await reader.read(0, Math.min(byteLength, 4096), options);
  let start = 0;
  while (
    start < head.length &&
    (isWhitespace(head[start] as number) || (start < 3 && (head[start] as number) > 0x7f))
  )
    start++;
  const tailStart = Math.max(start, byteLength - 4096);
  const tail = await reader.read(tailStart, byteLength - tailStart, options);
  let end = tail.length;
  while (end > 0 && isWhitespace(tail[end - 1] as number)) end--;
  return { start, end: tailStart + end, type: typeOf(head[start] as number) };
}

/**
 * Scans the container at `span` once, keeping what an edit of member `segment` needs (an
 * index of an array, a key of an object; a negative index counts from the end and costs a
 * second scan). Memory stays flat: only a few members' offsets are kept, whatever the count.
 */
export async function scanContainer(
  reader: SpoolReader,
  span: JsonValueSpan,
  options: {
    segment?: string | undefined;
    keys?: readonly string[];
    signal?: AbortSignal | undefined;
  },
): Promise<JsonContainerScan> {
  let { segment } = options;
  if (span.type === 'array' && segment !== undefined && /^-\d+$/.test(segment)) {
    const { count } = await scanContainer(reader, span, { signal: options.signal });
    segment = String(count + Number(segment));
  }
  const wanted = new Set(options.keys);
  const result: JsonContainerScan = { span, count: 0, present: [] };
  let previous: JsonEntrySpan | undefined;
  const scanner = new JsonStructureScanner({
    onEntry: (entry) => {
      result.count++;
      result.first ??= entry;
      result.beforeLast = result.last;
      result.last = entry;
      if (result.member && !result.after) result.after = entry;
      const name = entry.key ?? String(entry.index);
      if (!result.member && name === segment) {
        result.member = entry;
        if (previous) result.before = previous;
      }
      if (entry.key !== undefined && wanted.has(entry.key)) result.present.push(entry.key);
      previous = entry;
      return true;
    },
  });
  await scanJsonStructure(reader, scanner, {
    start: span.start,
    end: span.end,
    signal: options.signal,
  });
  return result;
}

/**
 * Follows `segments` (keys and indexes, after `$`) from the root down to the container that
 * holds the last one, and scans it for that member: where a set, insert or delete splices.
 * A segment that names nothing, or a scalar on the way, is `E_INVALID_TOOL_ARGS` naming the
 * path so far.
 *
 * @example
 * ```ts
 * const byteLength = await reader.byteLength();
 * const { parent } = await locateJsonMember(reader, ['body', 'rows', '3'], { byteLength });
 * parent?.member?.valueStart; // where $.body.rows[3] starts
 * ```
 */
export async function locateJsonMember(
  reader: SpoolReader,
  segments: readonly string[],
  options: { byteLength: number; keys?: readonly string[]; signal?: AbortSignal },
): Promise<{ root: JsonValueSpan; parent?: JsonContainerScan }> {
  const { signal } = options;
  const root = await rootSpan(reader, options.byteLength, signal);
  let span = root;
  let path = '$';
  for (const [position, segment] of segments.entries()) {
    if (span.type !== 'array' && span.type !== 'object')
      throw notFound(`${path} is a ${span.type}: it has no ${label(segment)}`);
    const last = position === segments.length - 1;
    const parent = await scanContainer(reader, span, {
      segment,
      ...(last && options.keys ? { keys: options.keys } : {}),
      ...(signal ? { signal } : {}),
    });
    if (last) return { root, parent };
    const member = parent.member;
    if (!member) throw notFound(`${path} has no ${label(segment)}${size(parent)}`);
    const [first = 0] = await reader.read(member.valueStart, 1, signal ? { signal } : {});
    span = { start: member.valueStart, end: member.end, type: typeOf(first) };
    path += span.type === 'array' || /^\d+$/.test(segment) ? `[${segment}]` : `.${segment}`;
  }
  return { root };
}

/** The type a value's first byte announces. */
export const typeOf = (byte: number): JsonType => containerType(byte) ?? scalarType(byte) ?? 'null';

const label = (segment: string) => (/^-?\d+$/.test(segment) ? `[${segment}]` : `key "${segment}"`);
const size = (scan: JsonContainerScan) =>
  scan.span.type === 'array' ? ` (${scan.count} elements)` : '';

/** The error of a path that names nothing: the model reads where it stopped. */
export function notFound(message: string): SpoolforgeError {
  return new SpoolforgeError('E_INVALID_TOOL_ARGS', `Path not found: ${message}`);
}
