import type { FilterNode, JsonFilterScope } from './json-filter-nodes.js';
import { JsonFilterParser, UnsupportedFilter } from './json-filter-parser.js';

/** A compiled filter: true when the entry matches; an expression that throws does not match. */
export type JsonFilterTest = (scope: JsonFilterScope) => boolean;

/**
 * Compiles a jsonpath-plus filter script (after its `@` → `_$_v` rewriting) into a closure, for
 * the subset that covers nearly every filter: comparisons, `&&`, `||`, `!`, `-`, `+`, `typeof`,
 * arithmetic, string and number literals, `true`/`false`/`null`/`undefined`, member access by
 * name or by a literal in brackets, and method calls (`@.name.startsWith('a')`). Its evaluation
 * is that of jsonpath-plus's safe evaluator, step for step (a member of `null` throws; a blocked
 * prototype property throws; a method is bound to its object), without `eval`, `Function` or
 * `vm`. Anything else (regular expressions, assignments, bitwise operators, arrays, `?:`) gives
 * `undefined`, so the caller uses jsonpath-plus itself, with its own errors.
 *
 * @example
 * ```ts
 * const test = compileJsonFilter('_$_v.status >= 500');
 * test?.({ _$_v: { status: 503 }, _$_root: null, _$_property: '0', _$_parent: null, _$_parentProperty: null }); // true
 * ```
 */
export function compileJsonFilter(script: string): JsonFilterTest | undefined {
  let node: FilterNode;
  try {
    node = new JsonFilterParser(script).parse();
  } catch (error) {
    if (error instanceof UnsupportedFilter) return undefined;
    throw error;
  }
  return (scope) => {
    try {
      return Boolean(node(scope));
    } catch {
      return false;
    }
  };
}
