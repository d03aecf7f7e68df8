import type { JsonType } from './json-scan-types.js';

/**
 * What {@link JsonShape} learned of one field path (`$[*].user.id`): how often it occurs, as
 * which types, and an example of its most common type.
 */
export interface ShapeField {
  path: string;
  count: number;
  types: Partial<Record<JsonType, number>>;
  /** The parent's count as an object: the base of "how often" for a member. */
  parentObjects?: number;
  examples?: Partial<Record<JsonType, unknown>>;
}

const identifier = /^[A-Za-z_$][\w$]*$/;

/** The types by ordinal, so a value's type is counted in an array slot, not a keyed property. */
const typeNames: readonly JsonType[] = ['object', 'array', 'string', 'number', 'boolean', 'null'];
const [objectType, arrayType, stringType, numberType, booleanType, nullType] = [0, 1, 2, 3, 4, 5];

/**
 * A field path's place in the tree, so a value's members find their fields by key rather than
 * by building and looking up their paths; `field` is undefined for a path past `maxFields`.
 */
interface ShapeNode {
  path: string;
  field: ShapeField | undefined;
  /** Occurrences by type ordinal, and the ordinals in first-seen order (`field.types`' order). */
  counts: number[];
  seen: number[];
  /** The type ordinals that have an example. */
  exampled: number;
  members?: Map<string, ShapeNode>;
  /** The member nodes of the last object seen, by key order: the next of the same layout reuses them. */
  layout?: Layout;
  items?: ShapeNode;
}

interface Layout {
  keys: string[];
  nodes: ShapeNode[];
  latin1: boolean;
}

/**
 * An inferred schema summary of many JSON values, built one value at a time in bounded memory:
 * field paths (array items as `[*]`), the types seen at each with counts, and an example. At
 * most `maxFields` paths are kept (keys that are data, such as ids, would make one per value);
 * the rest are counted as `droppedFields`. Objects of one key layout (the records of one API)
 * find their members' fields by position, without a lookup per key.
 *
 * @example
 * ```ts
 * const shape = new JsonShape();
 * for (const row of rows) shape.add('$[*]', row);
 * shape.fields(); // [{ path: '$[*]', … }, { path: '$[*].id', … }, …]
 * ```
 */
export class JsonShape {
  /** The kept fields' nodes by path, in first-seen order. */
  readonly #nodes = new Map<string, ShapeNode>();
  readonly #maxFields: number;
  readonly #maxDepth: number;
  #droppedFields = new Set<string>();
  #droppedCount = 0;

  constructor(options: { maxFields?: number; maxDepth?: number } = {}) {
    this.#maxFields = options.maxFields ?? 300;
    this.#maxDepth = options.maxDepth ?? 12;
  }

  /** Field paths that did not fit `maxFields` (a few kept for the summary, all counted). */
  get droppedFields(): { count: number; examples: string[] } {
    return { count: this.#droppedCount, examples: [...this.#droppedFields] };
  }

  /**
   * Records `value` (and everything inside it) as one occurrence of `path`. `latin1`: the value
   * was parsed from UTF-8 bytes read as latin1 (JSON.parse is fastest on one-byte strings), so
   * its keys and strings hold UTF-8 bytes as characters; the keys and examples kept are decoded.
   */
  add(path: string, value: unknown, parentObjects?: number, depth = 0, latin1 = false): void {
    this.#add(this.#node(path), value, parentObjects, depth, latin1);
  }

  /** Records one occurrence of `path` as a `type`, without its value (one too large to parse). */
  addType(path: string, type: JsonType, parentObjects?: number): ShapeField | undefined {
    const node = this.#node(path);
    return this.#count(node, typeNames.indexOf(type), parentObjects) ? withTypes(node) : undefined;
  }

  /** The fields in first-seen order (parents before their members). */
  fields(): ShapeField[] {
    return [...this.#nodes.values()].map(withTypes);
  }

  #add(
    node: ShapeNode,
    value: unknown,
    parentObjects: number | undefined,
    depth: number,
    latin1: boolean,
  ): void {
    const type =
      value === null
        ? nullType
        : typeof value === 'string'
          ? stringType
          : typeof value === 'number'
            ? numberType
            : typeof value === 'boolean'
              ? booleanType
              : Array.isArray(value)
                ? arrayType
                : objectType;
    const field = this.#count(node, type, parentObjects);
    if (!field) return;
    field.examples ??= {};
    if (type === arrayType) {
      if (depth >= this.#maxDepth) return;
      node.items ??= this.#node(`${node.path}[*]`);
      const items = value as unknown[];
      for (let index = 0; index < items.length; index++)
        this.#add(node.items, items[index], undefined, depth + 1, latin1);
    } else if (type === objectType) {
      if (depth < this.#maxDepth)
        this.#object(node, value as Record<string, unknown>, depth, latin1);
    } else if ((node.exampled & (1 << type)) === 0) {
      node.exampled |= 1 << type;
      const example = typeof value === 'string' ? decoded(value, latin1) : value;
      field.examples[typeNames[type] as JsonType] =
        typeof example === 'string' && example.length > 60 ? `${example.slice(0, 60)}…` : example;
    }
  }

  /** An object's members, by the last layout's nodes while its keys come in the same order. */
  #object(node: ShapeNode, object: Record<string, unknown>, depth: number, latin1: boolean): void {
    const objects = node.counts[objectType] as number;
    const layout = node.layout?.latin1 === latin1 ? node.layout : undefined;
    let fresh: Layout | undefined;
    // Own keys only (as Object.keys): a for-in would also list an enumerable prototype property.
    const keys = Object.keys(object);
    for (let position = 0; position < keys.length; position++) {
      const key = keys[position] as string;
      let member: ShapeNode;
      if (fresh === undefined && layout !== undefined && layout.keys[position] === key)
        member = layout.nodes[position] as ShapeNode;
      else {
        fresh ??= {
          keys: layout ? layout.keys.slice(0, position) : [],
          nodes: layout ? layout.nodes.slice(0, position) : [],
          latin1,
        };
        member = this.#member(node, decoded(key, latin1));
        fresh.keys.push(key);
        fresh.nodes.push(member);
      }
      // An own `__proto__` (JSON.parse makes one) is read as itself, not as the prototype.
      const child =
        key === '__proto__' ? Object.getOwnPropertyDescriptor(object, key)?.value : object[key];
      this.#add(member, child, objects, depth + 1, latin1);
    }
    if (fresh) node.layout = fresh;
  }

  #member(node: ShapeNode, key: string): ShapeNode {
    node.members ??= new Map();
    let member = node.members.get(key);
    if (!member) {
      member = this.#node(identifier.test(key) ? `${node.path}.${key}` : `${node.path}['${key}']`);
      // Bounded like the fields: a document of ever-new keys does not grow it past a limit.
      if (node.members.size < this.#maxFields) node.members.set(key, member);
    }
    return member;
  }

  #count(node: ShapeNode, type: number, parentObjects: number | undefined): ShapeField | undefined {
    const field = node.field;
    if (!field) {
      if (this.#droppedFields.size < 5) this.#droppedFields.add(node.path);
      this.#droppedCount++;
      return undefined;
    }
    if (parentObjects !== undefined) field.parentObjects = parentObjects;
    field.count++;
    const counts = node.counts;
    if ((counts[type] as number) === 0) node.seen.push(type);
    counts[type] = (counts[type] as number) + 1;
    return field;
  }

  /** The node of `path`: the kept one, a new one while there is room, else a dropped one. */
  #node(path: string): ShapeNode {
    let node = this.#nodes.get(path);
    if (node) return node;
    const counts = [0, 0, 0, 0, 0, 0];
    if (this.#nodes.size >= this.#maxFields)
      return { path, field: undefined, counts, seen: [], exampled: 0 };
    node = { path, field: { path, count: 0, types: {} }, counts, seen: [], exampled: 0 };
    this.#nodes.set(path, node);
    return node;
  }
}

/** A kept node's field with its `types` brought up to date from the node's counts. */
function withTypes(node: ShapeNode): ShapeField {
  const field = node.field as ShapeField;
  const types: ShapeField['types'] = {};
  for (const type of node.seen) types[typeNames[type] as JsonType] = node.counts[type] as number;
  field.types = types;
  return field;
}

/**
 * A key or string of a value parsed from latin1-read UTF-8 bytes, decoded; others as they are.
 * Only its runs of byte characters are UTF-8: an escape such as `\u20ac` made a character above
 * U+00FF beside them, which a latin1 encoding of the whole string would cut to one byte.
 */
function decoded(text: string, latin1: boolean): string {
  return latin1 && /[\x80-\xff]/.test(text)
    ? text.replace(/[\x80-\xff]+/g, (bytes) => Buffer.from(bytes, 'latin1').toString('utf8'))
    : text;
}

/**
 * One line per field: path, types with counts (and the share of parent objects that have it),
 * and examples, e.g. `$[*].status: number 199,000, string 1,000 (100% of objects); e.g. 200, "n/a"`.
 *
 * @example
 * ```ts
 * formatShapeField(field); // "$[*].id: number 200,000 (100%); e.g. 17"
 * ```
 */
export function formatShapeField(field: ShapeField): string {
  const number = (value: number) => value.toLocaleString('en-US');
  const types = Object.entries(field.types)
    .sort(([, a], [, b]) => (b as number) - (a as number))
    .map(([type, count]) => `${type} ${number(count as number)}`)
    .join(', ');
  const share =
    field.parentObjects !== undefined && field.parentObjects > 0
      ? ` (in ${formatShare(field.count / field.parentObjects)} of parents)`
      : '';
  const examples = Object.values(field.examples ?? {}).map((value) => JSON.stringify(value));
  return `${field.path}: ${types}${share}${examples.length ? `; e.g. ${examples.join(', ')}` : ''}`;
}

function formatShare(ratio: number): string {
  if (ratio >= 1) return '100%';
  const percent = ratio * 100;
  return `${percent >= 99.95 ? '99.9' : percent < 0.1 ? '<0.1' : percent.toFixed(1)}%`;
}
