import { SpoolforgeError } from '../../shared/spoolforge-error.js';
import type { JsonDocument, JsonEntry } from './json-document.js';
import { entryPath } from './json-document.js';

type JsonPathPlus = typeof import('jsonpath-plus').JSONPath;

/**
 * Where a path lands in a document: the document that holds what it names, the normalized path
 * of that document's root (`$['items']`), and the path's segments from there.
 */
export interface ResolvedJsonPath {
  document: JsonDocument;
  prefix: string;
  segments: string[];
}

/**
 * Follows a path's leading keys and indexes into entries too large to parse (`$.items` of a
 * 50 MB `{"items":[…]}`), each an indexed document of its own, so the rest of the path is
 * evaluated element by element there instead of failing on the entry's size.
 *
 * @example
 * ```ts
 * const { document: items, segments } = await resolveJsonPath(document, '$.items[?(@.price > 10)]');
 * // items: the array, indexed; segments: ['$', '?(@.price > 10)']
 * ```
 */
export async function resolveJsonPath(
  document: JsonDocument,
  path: string,
): Promise<ResolvedJsonPath> {
  const { JSONPath } = await import('jsonpath-plus');
  let segments = parsePath(path, JSONPath);
  let prefix = '$';
  // Only an indexed document has children (a JSONL file is never counted for this).
  while (document.child) {
    const entry = await namedEntry(document, segments[1]);
    const child = entry && (await document.child?.(entry.key ?? String(entry.index)));
    if (!entry || !child) return { document, prefix, segments };
    prefix += entryPath(entry).slice(1);
    document = child;
    segments = ['$', ...segments.slice(2)];
  }
  return { document, prefix, segments };
}

/**
 * Whether a segment names one member by its key, rather than a wildcard, a filter, a union or
 * recursive descent (jsonpath-plus reads `$['*']` as `$.*`, so `*` is always the wildcard).
 *
 * @example
 * ```ts
 * isKeySegment('items'); // true
 * isKeySegment('*'); // false
 * ```
 */
export function isKeySegment(segment: string): boolean {
  return !/^[?@.(]|[,*]/.test(segment);
}

/** The entry a segment names: a key of an object root, an index (from the end if negative) of an array root. */
async function namedEntry(
  document: JsonDocument,
  segment: string | undefined,
): Promise<Pick<JsonEntry, 'index' | 'key'> | undefined> {
  if (segment === undefined) return undefined;
  if (document.rootType === 'object')
    return isKeySegment(segment) ? { index: -1, key: segment } : undefined;
  if (document.rootType !== 'array' || !/^-?\d+$/.test(segment)) return undefined;
  const index = Number(segment);
  return { index: index < 0 ? (await document.counts()).indexLimit + index : index };
}

/**
 * A model's path as jsonpath-plus segments: `status`, `.status` and `[*].status` are read as
 * rooted at `$`. Filters with regular expressions are refused.
 *
 * @example
 * ```ts
 * parsePath('[*].status', (await import('jsonpath-plus')).JSONPath); // ['$', '*', 'status']
 * ```
 */
export function parsePath(path: string, JSONPath: JsonPathPlus): string[] {
  const trimmed = path.trim();
  const rooted = trimmed.startsWith('$')
    ? trimmed
    : trimmed.startsWith('[') || trimmed.startsWith('.')
      ? `$${trimmed}`
      : `$.${trimmed}`;
  // jsonpath-plus cuts `["it's"]` at the quote; `['it\'s']` is read.
  if (/\["[^"\]]*'/.test(rooted)) throw invalidPath(path, "write a key with a ' as ['it\\'s']");
  let segments: string[];
  try {
    segments = [...JSONPath.toPathArray(rooted)];
  } catch (error) {
    throw invalidPath(path, error);
  }
  for (const [position, segment] of segments.entries()) {
    // A segment jsonpath-plus left unclosed (`[?(@.id > 1`) fails only when evaluated, if at all.
    if (/^\??\(/.test(segment) && !segment.endsWith(')')) {
      throw invalidPath(path, `unclosed ${segment.startsWith('?') ? 'filter' : 'expression'}`);
    }
    // `$['it\'s']`: jsonpath-plus keeps the backslash of an escaped quote in the key.
    if (!/^\??\(/.test(segment)) segments[position] = segment.replaceAll("\\'", "'");
    if (segment.startsWith('?(') && usesRegex(segment)) {
      throw new SpoolforgeError(
        'E_INVALID_TOOL_ARGS',
        `Regular expressions are not allowed in filters (${segment}): they could run without bound. ` +
          'Compare with ==, <, >, &&, ||, or use .includes(), .startsWith(), .endsWith(); artifact_grep searches text.',
      );
    }
  }
  return segments;
}

/** The `E_INVALID_TOOL_ARGS` error of a malformed path, with how paths are written. */
export function invalidPath(path: string, problem: unknown): SpoolforgeError {
  const message = problem instanceof Error ? problem.message : String(problem);
  return new SpoolforgeError(
    'E_INVALID_TOOL_ARGS',
    `Invalid JSONPath ${path}: ${message}. Write keys as $.name or $['a b'] (a quote in a key as \\'), indexes as $[0], filters as $[?(@.status >= 500)].`,
  );
}

function usesRegex(expression: string): boolean {
  return (
    /\bRegExp\b|\.(?:match|matchAll|search)\s*\(/.test(expression) ||
    /(?:^|[(,=!&|?:~]\s*)\/[^/*]/.test(expression.slice(2))
  );
}
