import type { Schema, Type } from '@google/genai';

type JsonSchema = Record<string, unknown>;
type GeminiType = `${Type}`;

/** A `Schema` with its types as the strings the API reads (the SDK's `Type` is an enum). */
type GeminiSchema = Omit<Schema, 'type' | 'anyOf' | 'items' | 'properties'> & {
  type?: GeminiType;
  anyOf?: GeminiSchema[];
  items?: GeminiSchema;
  properties?: Record<string, GeminiSchema>;
};

/** The JSON types Gemini's `Schema.type` names (`null` becomes `nullable`). */
const geminiTypes: Partial<Record<string, GeminiType>> = {
  string: 'STRING',
  number: 'NUMBER',
  integer: 'INTEGER',
  boolean: 'BOOLEAN',
  array: 'ARRAY',
  object: 'OBJECT',
};

/** The formats the API takes for each type; any other is refused with a 400. */
const geminiFormats: Record<string, readonly string[]> = {
  STRING: ['enum', 'date-time'],
  NUMBER: ['float', 'double'],
  INTEGER: ['int32', 'int64'],
};

/** The count keywords kept, which the API reads as int64 (strings in its JSON). */
const countKeywords = ['minLength', 'maxLength', 'minItems', 'maxItems'] as const;

/** `$ref`s followed before one is cut (a recursive schema refers to itself without end). */
const maxRefDepth = 8;

interface Walk {
  root: JsonSchema;
  /** The `$ref`s followed to get here: one met again is a cycle. */
  refs: readonly string[];
}

/**
 * A JSON Schema (as `toJsonSchema` makes of a tool's zod schema, or an MCP server sends) in the
 * dialect of Gemini's `FunctionDeclaration.parameters`: the OpenAPI 3.0 subset every Gemini
 * model and Vertex AI accept. Types are upper-case names; `null` in a type list, an `anyOf`
 * or an `enum` becomes `nullable: true`; a string `const` becomes a one-value `enum`; `oneOf`
 * becomes `anyOf`; local `$ref`s (`#/$defs/…`, `#/definitions/…`) are inlined, a cycle cut
 * where it closes; an integer's `exclusiveMinimum` / `exclusiveMaximum` become `minimum` /
 * `maximum`. What the dialect cannot say is left out rather than refused by the API:
 * `additionalProperties`, `default`, `title`, `not`, `allOf` of several, non-string enums,
 * formats it does not know, and the type of an object without properties or an array without
 * `items` (the API refuses those; a schema without a type takes any value). Leaving a
 * constraint out is safe: the arguments are still checked against the tool's own schema when
 * it is called, and a model that breaks it gets an error result saying what was wrong.
 *
 * @example
 * ```ts
 * toGeminiSchema({ type: 'object', properties: { n: { type: ['integer', 'null'], minimum: 1 } } });
 * // { type: 'OBJECT', properties: { n: { type: 'INTEGER', nullable: true, minimum: 1 } } }
 * ```
 */
export function toGeminiSchema(schema: JsonSchema): Schema {
  return convert(schema, { root: schema, refs: [] }) as Schema;
}

function convert(node: unknown, walk: Walk): GeminiSchema {
  if (!isSchema(node)) return {}; // `true`, or something that is not a schema: any value
  const followed = follow(node, walk);
  if (followed === undefined) return describe(node);
  const [source, inner] = followed;
  const result = describe(source);
  const allOf = arrayOf(source.allOf);
  const options = [
    ...arrayOf(source.anyOf),
    ...arrayOf(source.oneOf),
    ...(allOf.length === 1 ? allOf : []),
  ];
  const concrete = options.filter((option) => !(isSchema(option) && option.type === 'null'));
  const types = typesOf(source);
  const values = Array.isArray(source.enum) ? source.enum : 'const' in source ? [source.const] : [];
  if (
    source.nullable === true ||
    types.includes('null') ||
    concrete.length < options.length ||
    values.includes(null)
  ) {
    result.nullable = true;
  }
  const named = types.flatMap((type) => geminiTypes[type] ?? []);
  // One type is this schema's own; several (or options beside a type) become alternatives.
  const alternatives = [
    ...(named.length > 1 ? named.map((type) => typed({}, type, inner)) : []),
    ...concrete.map((option) => convert(option, inner)),
  ];
  const [own] = named;
  if (alternatives.length === 0 && own !== undefined)
    Object.assign(result, typed(source, own, inner));
  else if (alternatives.length === 1) Object.assign(result, alternatives[0], describe(source));
  else if (alternatives.length > 1) result.anyOf = alternatives;
  const strings = values.filter((value) => value !== null);
  // Beside `anyOf` an enum would need a `type`, and the SDK refuses `type` with `anyOf`.
  const stringEnum = strings.length > 0 && strings.every((value) => typeof value === 'string');
  if (stringEnum && result.anyOf === undefined) {
    result.type ??= 'STRING';
    result.enum = strings;
  }
  return result;
}

/** The keywords of one type, or none for a type the API would refuse as written. */
function typed(source: JsonSchema, type: GeminiType, walk: Walk): GeminiSchema {
  const result: GeminiSchema = { type };
  if (type === 'OBJECT') {
    const properties = Object.entries(isSchema(source.properties) ? source.properties : {});
    if (properties.length === 0) return {}; // "properties: should be non-empty for OBJECT type"
    result.properties = Object.fromEntries(
      properties.map(([name, value]) => [name, convert(value, walk)]),
    );
    const required = arrayOf(source.required).filter(
      (name): name is string =>
        typeof name === 'string' && Object.hasOwn(result.properties ?? {}, name),
    );
    if (required.length > 0) result.required = required;
  } else if (type === 'ARRAY') {
    if (!isSchema(source.items)) return {}; // "items: missing field"
    result.items = convert(source.items, walk);
  }
  const { format, pattern } = source;
  if (typeof format === 'string' && geminiFormats[type]?.includes(format)) result.format = format;
  if (typeof pattern === 'string' && type === 'STRING') result.pattern = pattern;
  for (const keyword of countKeywords) {
    const value = source[keyword];
    if (typeof value === 'number') result[keyword] = String(value);
  }
  // An integer's exclusive bound is an inclusive one a step inside.
  const exclusive = (key: string, step: number) =>
    typeof source[key] === 'number' && type === 'INTEGER' ? source[key] + step : undefined;
  const minimum = numberOr(source.minimum, exclusive('exclusiveMinimum', 1));
  const maximum = numberOr(source.maximum, exclusive('exclusiveMaximum', -1));
  if (minimum !== undefined) result.minimum = minimum;
  if (maximum !== undefined) result.maximum = maximum;
  return result;
}

/**
 * The schema a `$ref` points at, its own keywords beside the `$ref` laid over it, and the walk
 * inside it; `undefined` for a ref that cannot be followed (not local, missing, or a cycle).
 */
function follow(node: JsonSchema, walk: Walk): [JsonSchema, Walk] | undefined {
  const ref = node.$ref;
  if (typeof ref !== 'string') return [node, walk];
  if (walk.refs.includes(ref) || walk.refs.length >= maxRefDepth) return undefined;
  const target = ref
    .replace(/^#\/?/, '')
    .split('/')
    .filter(Boolean)
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce<unknown>((at, part) => (isSchema(at) ? at[part] : undefined), walk.root);
  if (!ref.startsWith('#') || !isSchema(target)) return undefined;
  const { $ref: _ref, ...rest } = node;
  return [
    { ...target, ...rest },
    { root: walk.root, refs: [...walk.refs, ref] },
  ];
}

function describe(source: JsonSchema): GeminiSchema {
  return typeof source.description === 'string' ? { description: source.description } : {};
}

function typesOf(source: JsonSchema): string[] {
  const { type } = source;
  return (Array.isArray(type) ? type : [type]).filter((item) => typeof item === 'string');
}

function arrayOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function numberOr(value: unknown, fallback: number | undefined): number | undefined {
  return typeof value === 'number' ? value : fallback;
}
