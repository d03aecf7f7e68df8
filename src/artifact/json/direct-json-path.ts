import { compileJsonFilter } from './compile-json-filter.js';
import type { JsonFilterScope } from './json-filter-nodes.js';

type JsonPathPlus = typeof import('jsonpath-plus').JSONPath;

/**
 * The matches of a path in one entry: `value` is the entry, `key` its index or member name (read
 * by a filter only), and `prefix` the normalized path the matches' paths start with.
 */
export type DirectJsonPath = (value: unknown, key: string, prefix: string) => DirectMatch[];

/** A match as `queryJson` reports it. */
export interface DirectMatch {
  path: string;
  value: unknown;
}

/** Segments jsonpath-plus reads as something other than a member name. */
const special = /^(?:\*|\.\.|\^|~|\$|[?(@`].*|-?\d*:-?\d*:?\d*)$|,/;

/**
 * A path's evaluation on each entry without jsonpath-plus, for the shapes queries mostly take:
 * member names after the entry (`$[*].id`, as `['$', 'id']`), or a filter on the entry then
 * member names (`$[?(@.status >= 500)].id`, as `['$', '?(@.status >= 500)', 'id']`, the entry
 * wrapped as `{ [key]: value }` like the caller does for jsonpath-plus). Its matches and paths
 * are jsonpath-plus's own; `undefined` for any other shape, or a filter outside what
 * {@link compileJsonFilter} compiles, which then goes to jsonpath-plus.
 *
 * @example
 * ```ts
 * const direct = directJsonPath(['$', '?(@.status >= 500)', 'id'], { filtered: true, JSONPath });
 * direct?.({ status: 503, id: 7 }, '3', '$'); // [{ path: "$[3]['id']", value: 7 }]
 * ```
 */
export function directJsonPath(
  segments: string[],
  options: { filtered: boolean; JSONPath: JsonPathPlus },
): DirectJsonPath | undefined {
  const { JSONPath, filtered } = options;
  const keys = segments.slice(filtered ? 2 : 1);
  // jsonpath-plus joins an array of segments into a path and splits it again: member names it
  // gives back unchanged are its own reading of them. (A filter it does not: `$['?(…)']` comes
  // back as `$..[?(…)]`, a descent into every nested object, which a filter on entries is not.)
  const reread = JSONPath.toPathArray(JSONPath.toPathString(['$', ...keys])).slice(1);
  if (reread.length !== keys.length || reread.some((key, i) => key !== keys[i])) return undefined;
  if (keys.some((key) => special.test(key))) return undefined;
  const keysPath = JSONPath.toPathString(['$', ...keys]).slice(1);
  const walk = (value: unknown, path: string): DirectMatch[] => {
    for (const key of keys) {
      // jsonpath-plus follows a member only of a truthy value that has it as its own.
      if (!(value && Object.hasOwn(value, key))) return [];
      value = (value as Record<string, unknown>)[key];
    }
    return [{ path: path + keysPath, value }];
  };
  if (!filtered) return (value, _key, prefix) => walk(value, prefix);
  const filter = filterTest(segments[1] as string);
  if (!filter) return undefined;
  const { test, readsRoot } = filter;
  // One scope for every entry: a test reads it and keeps nothing of it.
  const scope: JsonFilterScope = {
    _$_v: undefined,
    _$_root: null,
    _$_property: '',
    _$_parent: null,
    _$_parentProperty: null,
  };
  return (value, key, prefix) => {
    scope._$_v = value;
    scope._$_property = key;
    // The one-entry root is built only for a filter that names it.
    scope._$_root = readsRoot ? { [key]: value } : null;
    return test(scope) ? walk(value, prefix + JSONPath.toPathString(['$', key]).slice(1)) : [];
  };
}

/** The filter segment's test, rewritten as jsonpath-plus rewrites it before its evaluator. */
function filterTest(segment: string) {
  if (!segment.startsWith('?(')) return undefined;
  const code = segment.replace(/^\?\((.*?)\)$/u, '$1');
  // A nested filter (`@.items[?(@.x)]`) and `@path` take jsonpath-plus's own routes.
  if (/@.?([^?]*)[['](\??\(.*?\))(?!.\)\])[\]']/u.test(code) || code.includes('@path'))
    return undefined;
  const script = code
    .replaceAll('@parentProperty', '_$_parentProperty')
    .replaceAll('@parent', '_$_parent')
    .replaceAll('@property', '_$_property')
    .replaceAll('@root', '_$_root')
    .replaceAll(/@([.\s)[])/gu, '_$_v$1');
  const test = compileJsonFilter(script);
  return test && { test, readsRoot: script.includes('_$_root') };
}
