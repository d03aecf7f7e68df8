import { formatBytes } from '../../shared/format-bytes.js';
import type { ToolMethodContext } from '../forge/tool-method-descriptor.js';
import {
  type JsonDocument,
  type JsonEntry,
  jsonType,
  type LargeJsonEntry,
} from './json-document.js';
import { continueJson, count } from './json-tool-support.js';

const number = (value: number) => value.toLocaleString('en-US');

/**
 * A short description of a JSON value: `array (52 elements)`, `object (12 keys)`,
 * `string (1,204 chars)`, or the type.
 *
 * @example
 * ```ts
 * describeJson([1, 2, 3]); // 'array (3 elements)'
 * ```
 */
export function describeJson(value: unknown): string {
  const type = jsonType(value);
  if (type === 'array') return `array (${number((value as unknown[]).length)} elements)`;
  if (type === 'object') return `object (${number(Object.keys(value as object).length)} keys)`;
  if (type === 'string') return `string (${number((value as string).length)} chars)`;
  return type;
}

/**
 * One value as a model sees it: `path = compact JSON`, at most `maxChars` of JSON. A longer
 * array or object shows the children that fit and names the slice that continues it; a longer
 * string is cut with its length.
 *
 * @example
 * ```ts
 * renderJsonValue("$[3]['tags']", tags, { context: methodContext, maxChars: 2_000 });
 * // "$[3]['tags'] = [\"a\",\"b\",…] [cut: array (900 elements), showing the first 120; continue with artifact_json {\"callId\":\"call_1\",\"op\":\"slice\",…}]"
 * ```
 */
export function renderJsonValue(
  path: string,
  value: unknown,
  options: { context: ToolMethodContext; maxChars: number },
): string {
  const json = JSON.stringify(value) ?? 'null';
  if (json.length <= options.maxChars) return `${path} = ${json}`;
  const type = jsonType(value);
  if (type !== 'array' && type !== 'object') {
    return `${path} = ${json.slice(0, options.maxChars)}… [cut: ${describeJson(value)}]`;
  }
  const isArray = type === 'array';
  // Children are rendered one at a time, only as many as fit: the value may have millions.
  const entries = isArray
    ? (value as unknown[]).entries()
    : Object.entries(value as object).values();
  const shownChildren: string[] = [];
  let length = 1;
  for (const [key, child] of entries) {
    const rendered = `${isArray ? '' : `${JSON.stringify(key)}:`}${JSON.stringify(child) ?? 'null'}`;
    if (length + rendered.length + 1 > options.maxChars) break;
    length += rendered.length + 1;
    shownChildren.push(rendered);
  }
  const shown = shownChildren.length;
  const [open, close] = isArray ? ['[', ']'] : ['{', '}'];
  const prefix = `${open}${shownChildren.join(',')}${shown ? ',' : ''}…${close}`;
  const next = continueJson(options.context, 'slice', { path, start: shown });
  return `${path} = ${prefix} [cut: ${describeJson(value)}, showing the first ${shown}; continue with ${next}]`;
}

/** A document's root (`$`, or the entry `name` it was descended into): type and entry count, without reading it whole. */
export async function describeRoot(
  document: JsonDocument,
  name = '$',
  options: { signal?: AbortSignal } = {},
): Promise<string> {
  if (document.format === 'jsonl') {
    const { entryCount, indexLimit } = await document.counts(options);
    return `$: JSONL, ${count(entryCount, 'record')} on ${count(indexLimit, 'line')} (record $[i] is line i+1)`;
  }
  const { entryCount } = await document.counts(options);
  if (document.rootType === 'array') return `${name}: array (${count(entryCount, 'element')})`;
  if (document.rootType === 'object') return `${name}: object (${count(entryCount, 'key')})`;
  return `${name}: ${document.mode === 'parsed' ? describeJson(document.value) : document.rootType}`;
}

/** An entry too large to parse, described without parsing it: an array's or object's size comes from indexing it. */
export async function describeLarge(document: JsonDocument, entry: JsonEntry): Promise<string> {
  const child = await document.child?.(entry.key ?? String(entry.index));
  if (child) return (await describeRoot(child, '')).slice(2);
  return describeUnparsed(entry.large as LargeJsonEntry);
}

/**
 * A value too large to parse, by what its index knows: `string (52.0 MiB, too large to parse)`.
 *
 * @example
 * ```ts
 * describeUnparsed({ type: 'string', bytes: 5_000, maxBytes: 2_000 }); // 'string (4.9 KiB, too large to parse)'
 * ```
 */
export function describeUnparsed(large: LargeJsonEntry): string {
  return `${large.type} (${formatBytes(large.bytes)}, too large to parse)`;
}
