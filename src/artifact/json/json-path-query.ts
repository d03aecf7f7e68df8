import { SpoolforgeError, throwIfAborted } from '../../shared/spoolforge-error.js';
import { directJsonPath } from './direct-json-path.js';
import type { JsonDocument, JsonEntry, LargeJsonEntry } from './json-document.js';
import { entryBatches, entryPath, largeEntryError } from './json-document.js';
import { invalidPath, isKeySegment, resolveJsonPath } from './resolve-json-path.js';

type JsonPathPlus = typeof import('jsonpath-plus').JSONPath;

/**
 * One value a JSONPath matched, with its normalized path (`$[3]['status']`).
 */
export interface JsonMatch {
  path: string;
  value: unknown;
}

/**
 * Options for {@link queryJson}.
 */
export interface JsonQueryOptions {
  /** The first entry to evaluate: continues an earlier, cut query. */
  startIndex?: number;
  /** A `performance.now()` time after which the scan stops between entries. */
  deadline?: number;
  signal?: AbortSignal;
  /**
   * Receives each entry the path picks whole (`$[*]`, `$[3]`) that is too large to parse, with
   * its path and the document that holds it, instead of failing with `E_ARTIFACT_TOO_LARGE`.
   */
  onLarge?: (
    path: string,
    entry: JsonEntry & { large: LargeJsonEntry },
    document: JsonDocument,
  ) => unknown;
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
  const target = await resolveJsonPath(document, path);
  // Paths inside a descended-into entry are reported from the real root.
  const prefixed = (inner: string) => target.prefix + inner.slice(1);
  if (target.prefix !== '$') {
    const onEntry = options.onEntry;
    options = {
      ...options,
      onEntry: (matches, index) =>
        onEntry(
          matches.map((match) => ({ path: prefixed(match.path), value: match.value })),
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
    options.onEntry(evaluate(JSONPath, segments, document.value, '$', path), 0);
    return {};
  }
  const [first, ...rest] = segments.slice(1) as [string, ...string[]];
  const selection = await select(first, document, signal);
  const start = Math.max(options.startIndex ?? 0, selection.start);
  const batches = entryBatches(document, {
    start,
    end: selection.end,
    large: true,
    ...(signal ? { signal } : {}),
  });
  // Most paths are evaluated on each entry without jsonpath-plus, which costs tens of µs a call.
  const direct = directJsonPath(selection.wrap ? ['$', first, ...rest] : ['$', ...rest], {
    filtered: selection.wrap,
    JSONPath,
  });
  let count = 0;
  for await (const batch of batches) {
    for (const entry of batch) {
      if (++count % 1024 === 0) throwIfAborted(signal);
      let matches: JsonMatch[] = [];
      const picked = selection.wrap || selection.picks(entry);
      // Only an entry the path needs fails on its size; the others are skipped unread.
      if (picked && entry.large) {
        const at = prefixed(entryPath(entry));
        if (selection.wrap || rest.length || !options.onLarge)
          throw largeEntryError(at, entry.large);
        await options.onLarge(at, entry as JsonEntry & { large: LargeJsonEntry }, document);
        continue;
      }
      if (direct && (selection.wrap || (picked && rest.length))) {
        matches = selection.wrap
          ? direct(entry.value, entry.key ?? String(entry.index), '$')
          : direct(entry.value, '', entryPath(entry));
      } else if (selection.wrap) {
        const wrapper = { [entry.key ?? String(entry.index)]: entry.value };
        matches = evaluate(JSONPath, ['$', first, ...rest], wrapper, '$', path);
      } else if (picked) {
        matches = rest.length
          ? evaluate(JSONPath, ['$', ...rest], entry.value, entryPath(entry), path)
          : [{ path: entryPath(entry), value: entry.value }];
      }
      if (matches.length && options.onEntry(matches, entry.index) === false) {
        return { stopped: 'caller', nextIndex: entry.index };
      }
      if (deadline !== undefined && performance.now() > deadline) {
        return { stopped: 'deadline', nextIndex: entry.index + 1 };
      }
    }
  }
  return {};
}

interface Selection {
  start: number;
  end?: number;
  /** The first segment is evaluated by jsonpath-plus on a one-entry wrapper. */
  wrap: boolean;
  picks: (entry: JsonEntry) => boolean;
}

/** Which entries a path's first segment can reach, so the rest of the document is skipped. */
async function select(
  first: string,
  document: JsonDocument,
  signal: AbortSignal | undefined,
): Promise<Selection> {
  const all = { start: 0, wrap: false, picks: () => true };
  // Only an index from the end needs the count (for JSONL, a scan of the file).
  const absolute = async <T>(text: string | undefined, fallback: T) => {
    if (text === undefined || text === '') return fallback;
    const number = Number(text);
    if (number >= 0) return number;
    return Math.max(0, (await document.counts(signal ? { signal } : {})).indexLimit + number);
  };
  if (first === '*') return all;
  if (document.rootType === 'array') {
    if (/^-?\d+$/.test(first)) {
      const index = await absolute(first, 0);
      return { start: index, end: index + 1, wrap: false, picks: () => true };
    }
    const slice = /^(-?\d*):(-?\d*)(?::(\d+))?$/.exec(first);
    if (slice) {
      const start = await absolute(slice[1], 0);
      const step = Math.max(1, Number(slice[3] ?? 1));
      const picks = (entry: JsonEntry) => (entry.index - start) % step === 0;
      const end = await absolute(slice[2], undefined);
      return { start, ...(end === undefined ? {} : { end }), wrap: false, picks };
    }
  } else if (isKeySegment(first)) {
    return { start: 0, wrap: false, picks: (entry) => entry.key === first };
  }
  return { ...all, wrap: true };
}

function evaluate(
  JSONPath: JsonPathPlus,
  segments: string[],
  json: unknown,
  prefix: string,
  path: string,
): JsonMatch[] {
  let results: { path: string; value: unknown }[];
  try {
    results = JSONPath({
      path: pathText(JSONPath, segments),
      json: json as object,
      resultType: 'all',
      eval: 'safe',
      ignoreEvalErrors: true,
      wrap: true,
    });
  } catch (error) {
    // jsonpath-plus reports a malformed path only when it evaluates it, as a plain Error.
    throw invalidPath(path, error);
  }
  return results.map((result) => ({ path: prefix + result.path.slice(1), value: result.value }));
}

/**
 * The segments as a path jsonpath-plus reads back as them. Given the array, it joins it with
 * each filter quoted as a key (`$['?(@.x)']`), which it then reads as `$..[?(@.x)]`, a descent
 * into every nested object; a filter in brackets is read as itself.
 */
function pathText(JSONPath: JsonPathPlus, segments: string[]): string | string[] {
  // A script segment (`[(@.length-1)]`) keeps the array, and its reading, as before.
  if (segments.some((segment) => segment.startsWith('('))) return segments;
  const text = segments
    .map((segment, index) => {
      if (index === 0) return segment;
      return /^\??\(/.test(segment)
        ? `[${segment}]`
        : JSONPath.toPathString(['$', segment]).slice(1);
    })
    .join('');
  const reread = JSONPath.toPathArray(text);
  const same = reread.length === segments.length && reread.every((s, i) => s === segments[i]);
  return same ? text : segments;
}
