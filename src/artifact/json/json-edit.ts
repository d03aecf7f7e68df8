import { SpoolforgeError } from '../../shared/spoolforge-error.js';
import { readerChunks } from '../../spool/reader-chunks.js';
import type { SpoolReader } from '../../spool/spool-reader.js';
import { decodeUtf8 } from '../decode-utf8.js';
import { colon, isWhitespace } from './json-bytes.js';
import type { JsonEntrySpan } from './json-scan-types.js';
import {
  type JsonContainerScan,
  type JsonValueSpan,
  locateJsonMember,
  notFound,
  scanContainer,
  typeOf,
} from './locate-json-member.js';

/**
 * One edit of a JSON document at a definite path (`segments`: keys and indexes after `$`):
 * `set` replaces the value there (or adds the member, when an object lacks the last key),
 * `insert` puts `value` into the array there (before element `index`; default: at its end) or
 * adds the members of the object `value` to the object there, `delete` removes the member.
 * `value` is JSON text.
 */
export type JsonEdit =
  | { op: 'set'; segments: readonly string[]; value: string }
  | { op: 'insert'; segments: readonly string[]; value: string; index?: number }
  | { op: 'delete'; segments: readonly string[] };

/** The document's bytes `[start, end)` replaced by `text`: one edit, as bytes. */
export interface JsonSplice {
  start: number;
  end: number;
  text: string;
}

/**
 * Where an edit changes the document, found by byte-level scans of the containers on its
 * path (no value is parsed): every other byte stays as it was, and what it adds copies the
 * document's own separators (`,\n  `, `": "`), so a pretty, CRLF or minified document keeps
 * its formatting.
 *
 * @example
 * ```ts
 * const byteLength = await reader.byteLength();
 * const edit = { op: 'insert', segments: ['rows'], value: '{"id":4}' } as const;
 * const splice = await planJsonEdit(reader, edit, { byteLength });
 * ```
 */
export async function planJsonEdit(
  reader: SpoolReader,
  edit: JsonEdit,
  options: { byteLength: number; signal?: AbortSignal },
): Promise<JsonSplice> {
  const value = edit.op === 'delete' ? undefined : parseValue(edit.value);
  const { segments } = edit;
  const located = await locateJsonMember(reader, segments, options);
  const { parent } = located;
  const member = parent?.member;
  const where = pathOf(segments);
  if (edit.op === 'set') {
    const text = edit.value.trim();
    if (!parent) return { start: located.root.start, end: located.root.end, text };
    if (member) return { start: member.valueStart, end: member.end, text };
    const key = segments.at(-1) as string;
    if (parent.span.type !== 'object')
      throw notFound(`${where}: the array has ${parent.count} elements; insert adds one`);
    return append(reader, parent, [
      `${JSON.stringify(key)}${await colonOf(reader, parent)}${text}`,
    ]);
  }
  if (edit.op === 'delete') {
    if (!parent) throw new SpoolforgeError('E_INVALID_TOOL_ARGS', 'delete cannot remove $ itself');
    if (!member) throw notFound(`${where} does not exist`);
    const { span } = parent;
    if (parent.count === 1) return { start: span.start + 1, end: span.end - 1, text: '' };
    if (parent.after) return { start: member.start, end: parent.after.start, text: '' };
    return { start: (parent.before as JsonEntrySpan).end, end: member.end, text: '' };
  }
  // insert: into the container at the path.
  let target: JsonValueSpan = located.root;
  if (parent) {
    if (!member) throw notFound(`${where} does not exist`);
    const [first = 0] = await reader.read(member.valueStart, 1);
    target = { start: member.valueStart, end: member.end, type: typeOf(first) };
  }
  if (target.type === 'array') return insertElement(reader, target, edit, options.signal);
  if (target.type !== 'object') {
    throw new SpoolforgeError(
      'E_INVALID_TOOL_ARGS',
      `insert puts a value into an array or an object, and ${where} is a ${target.type}; set replaces it`,
    );
  }
  if (edit.index !== undefined)
    throw new SpoolforgeError('E_INVALID_TOOL_ARGS', `${where} is an object: start is for arrays`);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new SpoolforgeError(
      'E_INVALID_TOOL_ARGS',
      `insert into the object ${where} takes an object of the members to add, like {"key": 1}`,
    );
  }
  const keys = Object.keys(value);
  const scan = await scanContainer(reader, target, withSignal({ keys }, options.signal));
  if (scan.present.length > 0) {
    throw new SpoolforgeError(
      'E_INVALID_TOOL_ARGS',
      `${where} already has ${scan.present.map((key) => JSON.stringify(key)).join(', ')}; set replaces a member`,
    );
  }
  const colonText = await colonOf(reader, scan);
  const entries = Object.entries(value).map(
    ([key, each]) => `${JSON.stringify(key)}${colonText}${JSON.stringify(each)}`,
  );
  return append(reader, scan, entries);
}

/** `value` inserted into the array at `target`, before element `index` (default: appended). */
async function insertElement(
  reader: SpoolReader,
  target: JsonValueSpan,
  edit: Extract<JsonEdit, { op: 'insert' }>,
  signal: AbortSignal | undefined,
): Promise<JsonSplice> {
  const text = edit.value.trim();
  const segment = edit.index === undefined ? undefined : String(edit.index);
  const scan = await scanContainer(reader, target, withSignal({ segment }, signal));
  const index = edit.index ?? scan.count;
  if (index > scan.count) {
    throw new SpoolforgeError(
      'E_INVALID_TOOL_ARGS',
      `start ${index} is past the end of ${pathOf(edit.segments)} (${scan.count} elements); leave start out to append`,
    );
  }
  const member = scan.member;
  if (!member) return append(reader, scan, [text]);
  return { start: member.start, end: member.start, text: text + (await separatorOf(reader, scan)) };
}

/** `entries` added after the container's last member (or into it, when empty). */
async function append(
  reader: SpoolReader,
  scan: JsonContainerScan,
  entries: string[],
): Promise<JsonSplice> {
  if (!scan.last) {
    // An empty container: its own whitespace stays after the new members.
    const at = scan.span.start + 1;
    return { start: at, end: at, text: entries.join(',') };
  }
  const separator = await separatorOf(reader, scan);
  const at = scan.last.end;
  return { start: at, end: at, text: entries.map((entry) => separator + entry).join('') };
}

/**
 * The bytes between two members of the container (`,\n    `), or, with one member, a comma
 * and the whitespace before it: what a new member is set apart with.
 */
async function separatorOf(reader: SpoolReader, scan: JsonContainerScan): Promise<string> {
  const pair = (before?: JsonEntrySpan, after?: JsonEntrySpan) =>
    before && after ? { start: before.end, end: after.start } : undefined;
  const between =
    pair(scan.before, scan.member) ??
    pair(scan.member, scan.after) ??
    pair(scan.beforeLast, scan.last);
  if (between) return text(reader, between.start, between.end);
  const first = scan.first as JsonEntrySpan;
  return `,${await text(reader, scan.span.start + 1, first.start)}`;
}

/** What sets a key apart from its value in the object (`": "`, `":"`), from its first member. */
async function colonOf(reader: SpoolReader, scan: JsonContainerScan): Promise<string> {
  const first = scan.first;
  if (!first) return ':';
  // The key's closing quote, the colon and whitespace: read back from the value.
  const from = Math.max(first.start, first.valueStart - 256);
  const bytes = await reader.read(from, first.valueStart - from);
  let at = bytes.length;
  while (at > 0 && isWhitespace(bytes[at - 1] as number)) at--;
  if (bytes[at - 1] !== colon) return ':';
  at--;
  while (at > 0 && isWhitespace(bytes[at - 1] as number)) at--;
  return decodeUtf8(bytes.subarray(at));
}

async function text(reader: SpoolReader, start: number, end: number): Promise<string> {
  // Separators are whitespace and a comma; a document of MiBs of whitespace is cut to a line.
  const bytes = await reader.read(start, Math.min(end - start, 4096));
  return decodeUtf8(bytes);
}

/** The model's value, checked to be JSON. */
function parseValue(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch (error) {
    throw new SpoolforgeError(
      'E_INVALID_TOOL_ARGS',
      `value is not JSON (${(error as Error).message}); a string needs its quotes: "\\"text\\""`,
    );
  }
}

/** `$.body.rows[3]` of segments. */
export function pathOf(segments: readonly string[]): string {
  return `$${segments.map((segment) => (/^-?\d+$/.test(segment) ? `[${segment}]` : /^[A-Za-z_$][\w$]*$/.test(segment) ? `.${segment}` : `[${JSON.stringify(segment)}]`)).join('')}`;
}

const withSignal = <T extends object>(options: T, signal: AbortSignal | undefined) =>
  signal ? { ...options, signal } : options;

/**
 * The document's bytes with `splice` applied, read as they are written: the new document is
 * never whole in memory, whatever its size.
 *
 * @example
 * ```ts
 * const byteLength = await reader.byteLength();
 * const splice = await planJsonEdit(reader, { op: 'delete', segments: ['draft'] }, { byteLength });
 * await spool(splicedBytes(reader, splice, { byteLength }), { kind: 'json' });
 * ```
 */
export async function* splicedBytes(
  reader: SpoolReader,
  splice: JsonSplice,
  options: { byteLength: number; signal?: AbortSignal },
): AsyncGenerator<Uint8Array> {
  const signal = options.signal ? { signal: options.signal } : {};
  if (splice.start > 0) yield* readerChunks(reader, { start: 0, end: splice.start, ...signal });
  if (splice.text) yield Buffer.from(splice.text);
  if (splice.end < options.byteLength)
    yield* readerChunks(reader, { start: splice.end, end: options.byteLength, ...signal });
}
