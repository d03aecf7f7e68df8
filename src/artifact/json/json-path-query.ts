import { SpoolforgeError, throwIfAborted } from '../../shared/spoolforge-error.js';
import type { JsonDocument, JsonEntry } from './json-document.js';
import { entryPath } from './json-document.js';

type JsonPathPlus = typeof import('jsonpath-plus').JSONPath;

/**
 * One value a JSONPath matched, with its normalized path (`$[3]['status']`).
 *
 * @example
 * ```ts
 * const match: JsonMatch = { path: "$[3]['status']", value: 503 };
 * ```
 */
export interface JsonMatch {
  path: string;
  value: unknown;
}

/**
 * Options for {@link queryJson}.
 *
 * @example
 * ```ts
 * const options: JsonQueryOptions = { startIndex: 1_000, deadline: performance.now() + 30_000, onEntry };
 * ```
 */
export interface JsonQueryOptions {
  /** The first entry to evaluate: continues an earlier, cut query. */
  startIndex?: number;
  /** A `performance.now()` time after which the scan stops between entries. */
  deadline?: number;
  signal?: AbortSignal;
  /** Receives each entry's matches (in order); return `false` to stop. */
  onEntry: (matches: JsonMatch[], entryIndex: number) => boolean | undefined;
}

/**
 * How a query ended: `nextIndex` is where to continue when it `stopped` early (at the caller's
 * request or at the deadline).
 *
 * @example
 * ```ts
 * if (result.stopped === 'deadline') console.log(`continue with startIndex ${result.nextIndex}`);
 * ```
 */
export interface JsonQueryResult {
  stopped?: 'caller' | 'deadline';
  nextIndex?: number;
}

/**
 * Evaluates a JSONPath entry by entry, so a document that is never whole in memory is queried
 * in flat memory: the first segment picks entries (an index, a slice, `*`, a key, or a filter
 * tested on each entry) and the rest is evaluated on each picked entry by jsonpath-plus with its
 * safe evaluator, never `eval`, `Function` or `vm` (CVE-2024-21534, CVE-2025-1302). Matches come
 * in entry order, so `$..x` lists an entry's own matches before the next entry's; `@root` in a
 * filter is the entry being tested. A filter that throws on an entry (a missing field) does not
 * match it. Regular expressions are refused: a model's pattern could run without bound.
 *
 * @example
 * ```ts
 * await queryJson(document, '$[?(@.status >= 500)].path', {
 *   onEntry: (matches) => void found.push(...matches),
 * });
 * ```
 */
export async function queryJson(
  document: JsonDocument,
  path: string,
  options: JsonQueryOptions,
): Promise<JsonQueryResult> {
  // jsonpath-plus loads with the first query, not with the library.
  const { JSONPath } = await import('jsonpath-plus');
  const { signal, deadline } = options;
  const target = await resolveJsonPath(document, path, signal);
  if (target.prefix !== '$') {
    // Paths inside a descended-into entry are reported from the real root.
    const { prefix } = target;
    const onEntry = options.onEntry;
    options = {
      ...options,
      onEntry: (matches, index) =>
        onEntry(
          matches.map((match) => ({ path: prefix + match.path.slice(1), value: match.value })),
          index,
        ),
    };
  }
  ({ document } = target);
  const { segments } = target;
  if (segments.length === 1) {
    if (document.mode !== 'parsed') {
      const what = target.prefix === '$' ? '$ is the whole document,' : `${target.prefix} is`;
      throw new SpoolforgeError(
        'E_INVALID_TOOL_ARGS',
        `${what} too large to show at once: page through it with a slice, or ask for a narrower path`,
      );
    }
    options.onEntry([{ path: '$', value: document.value }], 0);
    return {};
  }
  if (document.rootType !== 'array' && document.rootType !== 'object') {
    options.onEntry(evaluate(JSONPath, segments, document.value, '$'), 0);
    return {};
  }
  const [first, ...rest] = segments.slice(1) as [string, ...string[]];
  const selection = select(first, document);
  const start = Math.max(options.startIndex ?? 0, selection.start);
  const entries = document.entries({
    start,
    end: selection.end,
    ...(signal ? { signal } : {}),
  });
  let count = 0;
  for await (const entry of entries) {
    if (++count % 1024 === 0) throwIfAborted(signal);
    let matches: JsonMatch[] = [];
    if (selection.wrap) {
      const wrapper = { [entry.key ?? String(entry.index)]: entry.value };
      matches = evaluate(JSONPath, ['$', first, ...rest], wrapper, '$');
    } else if (selection.picks(entry)) {
      matches = rest.length
        ? evaluate(JSONPath, ['$', ...rest], entry.value, entryPath(entry))
        : [{ path: entryPath(entry), value: entry.value }];
    }
    if (matches.length && options.onEntry(matches, entry.index) === false) {
      return { stopped: 'caller', nextIndex: entry.index };
    }
    if (deadline !== undefined && performance.now() > deadline) {
      return { stopped: 'deadline', nextIndex: entry.index + 1 };
    }
  }
  return {};
}

/**
 * Where a path lands in a document: the document that holds what it names, the normalized path
 * of that document's root (`$['items']`), and the path's segments from there.
 *
 * @example
 * ```ts
 * const target: ResolvedJsonPath = { document: items, prefix: "$['items']", segments: ['$', '*'] };
 * ```
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
  signal?: AbortSignal,
): Promise<ResolvedJsonPath> {
  const { JSONPath } = await import('jsonpath-plus');
  let segments = parsePath(path, JSONPath);
  let prefix = '$';
  for (;;) {
    const [, segment] = segments;
    const child = segment === undefined ? undefined : await document.child?.(segment, signal);
    if (!child || segment === undefined) return { document, prefix, segments };
    prefix += /^\d+$/.test(segment) ? `[${segment}]` : `['${segment}']`;
    document = child;
    segments = ['$', ...segments.slice(2)];
  }
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
  let segments: string[];
  try {
    segments = [...JSONPath.toPathArray(rooted)];
  } catch (error) {
    throw new SpoolforgeError('E_INVALID_TOOL_ARGS', `Invalid JSONPath ${path}: ${String(error)}`);
  }
  for (const segment of segments) {
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

function usesRegex(expression: string): boolean {
  return (
    /\bRegExp\b|\.(?:match|matchAll|search)\s*\(/.test(expression) ||
    /(?:^|[(,=!&|?:~]\s*)\/[^/*]/.test(expression.slice(2))
  );
}

interface Selection {
  start: number;
  end?: number;
  /** The first segment is evaluated by jsonpath-plus on a one-entry wrapper. */
  wrap: boolean;
  picks: (entry: JsonEntry) => boolean;
}

/** Which entries a path's first segment can reach, so the rest of the document is skipped. */
function select(first: string, document: JsonDocument): Selection {
  const all = { start: 0, wrap: false, picks: () => true };
  const absolute = (text: string | undefined, fallback: number) => {
    if (text === undefined || text === '') return fallback;
    const number = Number(text);
    return number < 0 ? Math.max(0, document.indexLimit + number) : number;
  };
  if (first === '*') return all;
  if (document.rootType === 'array') {
    if (/^-?\d+$/.test(first)) {
      const index = absolute(first, 0);
      return { start: index, end: index + 1, wrap: false, picks: () => true };
    }
    const slice = /^(-?\d*):(-?\d*)(?::(\d+))?$/.exec(first);
    if (slice) {
      const start = absolute(slice[1], 0);
      const step = Math.max(1, Number(slice[3] ?? 1));
      const picks = (entry: JsonEntry) => (entry.index - start) % step === 0;
      return { start, end: absolute(slice[2], document.indexLimit), wrap: false, picks };
    }
  } else if (!/^[?@.]|[,*]|^\.\.$/.test(first) && first !== '..') {
    return { start: 0, wrap: false, picks: (entry) => entry.key === first };
  }
  return { ...all, wrap: true };
}

function evaluate(
  JSONPath: JsonPathPlus,
  segments: string[],
  json: unknown,
  prefix: string,
): JsonMatch[] {
  const results = JSONPath({
    path: segments,
    json: json as object,
    resultType: 'all',
    eval: 'safe',
    ignoreEvalErrors: true,
    wrap: true,
  }) as { path: string; value: unknown }[];
  return results.map((result) => ({ path: prefix + result.path.slice(1), value: result.value }));
}
