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
  readonly #fields = new Map<string, ShapeField>();
  readonly #maxFields: number;
  readonly #maxDepth: number;
  #droppedFields = new Set<string>();
  #droppedCount = 0;
  /** Each field's member paths by key, and its elements' path, built once rather than per value. */
  readonly #childPaths = new Map<string, Map<string, string>>();
  readonly #itemPaths = new Map<string, string>();

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
    const type = jsonType(value);
    const field = this.addType(path, type, parentObjects);
    if (!field) return;
    field.examples ??= {};
    if (!(type in field.examples) && type !== 'object' && type !== 'array') {
      field.examples[type] =
        typeof value === 'string' && value.length > 60 ? `${value.slice(0, 60)}…` : value;
    }
    if (depth >= this.#maxDepth) return;
    if (type === 'array') {
      const items = this.#itemPaths.get(path) ?? `${path}[*]`;
      this.#itemPaths.set(path, items);
      for (const item of value as unknown[]) this.add(items, item, undefined, depth + 1);
    } else if (type === 'object') {
      const objects = field.types.object as number;
      for (const [key, member] of Object.entries(value as object)) {
        this.add(this.#childPath(path, key), member, objects, depth + 1);
      }
    }
  }

  /** Records one occurrence of `path` as a `type`, without its value (one too large to parse). */
  addType(path: string, type: JsonType, parentObjects?: number): ShapeField | undefined {
    const field = this.#field(path, parentObjects);
    if (!field) return undefined;
    field.count++;
    field.types[type] = (field.types[type] ?? 0) + 1;
    return field;
  }

  /** The fields in first-seen order (parents before their members). */
  fields(): ShapeField[] {
    return [...this.#fields.values()];
  }

  /** The path of member `key` of the field at `path`. */
  #childPath(path: string, key: string): string {
    let children = this.#childPaths.get(path);
    if (!children) {
      children = new Map();
      this.#childPaths.set(path, children);
    }
    let child = children.get(key);
    if (child === undefined) {
      child = identifier.test(key) ? `${path}.${key}` : `${path}['${key}']`;
      // Bounded like the fields: a document of ever-new keys does not grow it past a limit.
      if (children.size < this.#maxFields) children.set(key, child);
    }
    return child;
  }

  #field(path: string, parentObjects: number | undefined): ShapeField | undefined {
    let field = this.#fields.get(path);
    if (field) {
      if (parentObjects !== undefined) field.parentObjects = parentObjects;
      return field;
    }
    if (this.#fields.size >= this.#maxFields) {
      if (this.#droppedFields.size < 5) this.#droppedFields.add(path);
      this.#droppedCount++;
      return undefined;
    }
    field = { path, count: 0, types: {} };
    if (parentObjects !== undefined) field.parentObjects = parentObjects;
    this.#fields.set(path, field);
    return field;
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
