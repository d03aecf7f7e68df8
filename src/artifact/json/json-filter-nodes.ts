/** The names jsonpath-plus binds in a filter: `@` is `_$_v`, `@root` is `_$_root`, and so on. */
export type JsonFilterScope = Record<
  '_$_v' | '_$_root' | '_$_property' | '_$_parent' | '_$_parentProperty',
  unknown
>;

/** One compiled expression: its value in a scope (a member read or a call may throw). */
export type FilterNode = (scope: JsonFilterScope) => unknown;

/** The properties jsonpath-plus's safe evaluator refuses to read unless they are own. */
const blocked = new Set([
  'constructor',
  '__proto__',
  '__defineGetter__',
  '__defineSetter__',
  '__lookupGetter__',
  '__lookupSetter__',
]);
/** Member reads: only they are called, as methods. */
const members = new WeakSet<FilterNode>();
/** A member the safe evaluator refuses to read: the filter then does not match (never escapes). */
class Unreadable extends Error {}

/** Whether a node reads a member: only such a node is called, as a method. */
export function isMemberNode(node: FilterNode): boolean {
  return members.has(node);
}

/** A literal's value. */
export function constantNode(value: unknown): FilterNode {
  return () => value;
}

/** A member read as jsonpath-plus's safe evaluator does it. */
export function memberNode(object: FilterNode, property: string): FilterNode {
  const member = (scope: JsonFilterScope) => {
    const target = object(scope) as Record<string, unknown> | null | undefined;
    if (target === undefined || target === null) throw new Unreadable();
    if (!Object.hasOwn(target, property) && blocked.has(property)) throw new Unreadable();
    const value = target[property];
    return typeof value === 'function' ? value.bind(target) : value;
  };
  members.add(member);
  return member;
}

/** A method call, its arguments evaluated first as jsonpath-plus's safe evaluator does. */
export function callNode(callee: FilterNode, list: FilterNode[]): FilterNode {
  return (scope) => {
    const values = list.map((argument) => argument(scope));
    return (callee(scope) as (...values: unknown[]) => unknown)(...values);
  };
}

/** A binary operator of the subset; `||` and `&&` short-circuit. */
export function binaryNode(operator: string, left: FilterNode, right: FilterNode): FilterNode {
  type Pair = (a: unknown, b: unknown) => unknown;
  if (operator === '||') return (scope) => left(scope) || right(scope);
  if (operator === '&&') return (scope) => left(scope) && right(scope);
  const apply = (
    {
      // biome-ignore lint/suspicious/noDoubleEquals: the safe evaluator's loose equality
      '==': (a, b) => a == b,
      // biome-ignore lint/suspicious/noDoubleEquals: the safe evaluator's loose equality
      '!=': (a, b) => a != b,
      '===': (a, b) => a === b,
      '!==': (a, b) => a !== b,
      '<': (a, b) => (a as number) < (b as number),
      '>': (a, b) => (a as number) > (b as number),
      '<=': (a, b) => (a as number) <= (b as number),
      '>=': (a, b) => (a as number) >= (b as number),
      '+': (a, b) => (a as number) + (b as number),
      '-': (a, b) => (a as number) - (b as number),
      '*': (a, b) => (a as number) * (b as number),
      '/': (a, b) => (a as number) / (b as number),
      '%': (a, b) => (a as number) % (b as number),
    } satisfies Record<string, Pair>
  )[operator as '=='];
  return (scope) => apply(left(scope), right(scope));
}
