import { jsonType } from './json-document.js';
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

/**
 * A field path's place in the tree, so a value's members find their fields by key rather than
 * by building and looking up their paths; `field` is undefined for a path past `maxFields`.
 */
interface ShapeNode {
  path: string;
  field: ShapeField | undefined;
  members?: Map<string, ShapeNode>;
  items?: ShapeNode;
}

/**
 * An inferred schema summary of many JSON values, built one value at a time in bounded memory:
 * field paths (array items as `[*]`), the types seen at each with counts, and an example. At
 * most `maxFields` paths are kept (keys that are data, such as ids, would make one per value);
 * the rest are counted as `droppedFields`.
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

  /** Records `value` (and everything inside it) as one occurrence of `path`. */
  add(path: string, value: unknown, parentObjects?: number, depth = 0): void {
    this.#add(this.#node(path), value, parentObjects, depth);
  }

  /** Records one occurrence of `path` as a `type`, without its value (one too large to parse). */
  addType(path: string, type: JsonType, parentObjects?: number): ShapeField | undefined {
    return this.#count(this.#node(path), type, parentObjects);
  }

  /** The fields in first-seen order (parents before their members). */
  fields(): ShapeField[] {
    return [...this.#nodes.values()].map((node) => node.field as ShapeField);
  }

  #add(node: ShapeNode, value: unknown, parentObjects: number | undefined, depth: number): void {
    const type = jsonType(value);
    const field = this.#count(node, type, parentObjects);
    if (!field) return;
    field.examples ??= {};
    if (type === 'array') {
      if (depth >= this.#maxDepth) return;
      node.items ??= this.#node(`${node.path}[*]`);
      for (const item of value as unknown[]) this.#add(node.items, item, undefined, depth + 1);
    } else if (type === 'object') {
      if (depth >= this.#maxDepth) return;
      const objects = field.types.object as number;
      node.members ??= new Map();
      const members = node.members;
      const object = value as Record<string, unknown>;
      for (const key of Object.keys(object)) {
        let member = members.get(key);
        if (!member) {
          member = this.#node(
            identifier.test(key) ? `${node.path}.${key}` : `${node.path}['${key}']`,
          );
          // Bounded like the fields: a document of ever-new keys does not grow it past a limit.
          if (members.size < this.#maxFields) members.set(key, member);
        }
        // An own `__proto__` (JSON.parse makes one) is read as itself, not as the prototype.
        const child =
          key === '__proto__' ? Object.getOwnPropertyDescriptor(object, key)?.value : object[key];
        this.#add(member, child, objects, depth + 1);
      }
    } else if (!(type in field.examples)) {
      field.examples[type] =
        typeof value === 'string' && value.length > 60 ? `${value.slice(0, 60)}…` : value;
    }
  }

  #count(
    node: ShapeNode,
    type: JsonType,
    parentObjects: number | undefined,
  ): ShapeField | undefined {
    const field = node.field;
    if (!field) {
      if (this.#droppedFields.size < 5) this.#droppedFields.add(node.path);
      this.#droppedCount++;
      return undefined;
    }
    if (parentObjects !== undefined) field.parentObjects = parentObjects;
    field.count++;
    field.types[type] = (field.types[type] ?? 0) + 1;
    return field;
  }

  /** The node of `path`: the kept one, a new one while there is room, else a dropped one. */
  #node(path: string): ShapeNode {
    let node = this.#nodes.get(path);
    if (node) return node;
    if (this.#nodes.size >= this.#maxFields) return { path, field: undefined };
    node = { path, field: { path, count: 0, types: {} } };
    this.#nodes.set(path, node);
    return node;
  }
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
