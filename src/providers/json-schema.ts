import { z } from 'zod';
import { SpoolforgeError } from '../shared/spoolforge-error.js';
import type { Tool } from '../tools/tool.js';

type JsonSchema = Record<string, unknown>;

/**
 * A tool's zod input schema as JSON Schema (draft 2020-12, input side, no `$schema` key), the
 * shape Anthropic's `input_schema` and the AI SDK take.
 *
 * @example
 * ```ts
 * toJsonSchema(z.object({ pattern: z.string() }));
 * // { type: 'object', properties: { pattern: { type: 'string' } }, required: ['pattern'] }
 * ```
 */
export function toJsonSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
  });
  return compactNullables(withoutSafeIntegerBounds(rest)) as JsonSchema;
}

/**
 * A tool's input schema as JSON Schema, checked to be an object schema, which APIs that take
 * the arguments as one object (Anthropic's `input_schema`, Gemini's `parameters`) require: a
 * tool whose zod schema is not `z.object(…)` fails here with `E_INVALID_ARGUMENT`, naming the
 * tool and `api`, rather than as an HTTP 400 later.
 *
 * @example
 * ```ts
 * toObjectJsonSchema(tool, 'Anthropic'); // { type: 'object', properties: { … }, … }
 * ```
 */
export function toObjectJsonSchema(
  tool: Pick<Tool, 'name' | 'inputSchema'>,
  api: string,
): JsonSchema {
  const schema = toJsonSchema(tool.inputSchema);
  if (schema.type !== 'object') {
    throw new SpoolforgeError(
      'E_INVALID_ARGUMENT',
      `Tool '${tool.name}': ${api} needs an object input schema (z.object(…)), ` +
        `got ${JSON.stringify(schema.type ?? Object.keys(schema))}`,
    );
  }
  return schema;
}

/** Keywords that constrain only one JSON type, so they let `null` through unchanged. */
const typeOnlyKeywords = new Set([
  'type',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
]);

/**
 * `{"anyOf":[{"type":"integer","minimum":1},{"type":"null"}]}` as the equivalent
 * `{"type":["integer","null"],"minimum":1}`: an optional argument of a tool sent with every
 * request costs about eight tokens less (both forms are valid in OpenAI's strict mode).
 */
function compactNullables(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(compactNullables);
  if (typeof node !== 'object' || node === null) return node;
  const { anyOf, ...rest } = node as JsonSchema;
  const compacted = Object.fromEntries(
    Object.entries(rest).map(([key, value]) => [key, compactNullables(value)]),
  );
  if (!Array.isArray(anyOf)) return compacted;
  const [value, other] = anyOf as JsonSchema[];
  const single =
    anyOf.length === 2 &&
    typeof value?.type === 'string' &&
    Object.keys(value).every((key) => typeOnlyKeywords.has(key)) &&
    other?.type === 'null' &&
    Object.keys(other).length === 1;
  if (!single) return { ...compacted, anyOf: compactNullables(anyOf) };
  return { ...compacted, ...value, type: [value.type, 'null'] };
}

/**
 * zod writes `.int()` as bounds of ±(2^53 − 1); they tell a model nothing and cost tokens on
 * every request, so they go.
 */
function withoutSafeIntegerBounds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutSafeIntegerBounds);
  if (typeof node !== 'object' || node === null) return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(
        ([key, value]) =>
          !(key === 'maximum' && value === Number.MAX_SAFE_INTEGER) &&
          !(key === 'minimum' && value === Number.MIN_SAFE_INTEGER),
      )
      .map(([key, value]) => [key, withoutSafeIntegerBounds(value)]),
  );
}

/**
 * The same schema made acceptable to OpenAI's strict mode: every object lists all its
 * properties as required and forbids others; a property that was optional becomes nullable
 * instead (the executor reads a `null` back as "left out"); and no `{"not":{}}` remains.
 *
 * @example
 * ```ts
 * toStrictJsonSchema(z.object({ n: z.number().optional() }));
 * // { type: 'object', properties: { n: { type: ['number', 'null'] } },
 * //   required: ['n'], additionalProperties: false }
 * ```
 */
export function toStrictJsonSchema(schema: z.ZodType): JsonSchema {
  return strict(toJsonSchema(schema)) as JsonSchema;
}

function strict(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(strict);
  if (typeof node !== 'object' || node === null) return node;
  const result: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (isNotAnything(value)) continue;
    result[key] = strict(value);
  }
  const properties = result.properties as Record<string, JsonSchema> | undefined;
  if (result.type === 'object' || properties) {
    const required = new Set((result.required as string[] | undefined) ?? []);
    const names = Object.keys(properties ?? {});
    result.properties = Object.fromEntries(
      names.map((name) => {
        const property = properties?.[name] ?? {};
        return [name, required.has(name) || acceptsNull(property) ? property : nullable(property)];
      }),
    );
    result.required = names;
    result.additionalProperties = false;
  }
  return result;
}

function isNotAnything(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    'not' in value &&
    Object.keys(value).length === 1 &&
    Object.keys((value as { not: object }).not).length === 0
  );
}

function acceptsNull(property: JsonSchema): boolean {
  const allowsNull = (type: unknown) =>
    type === 'null' || (Array.isArray(type) && type.includes('null'));
  const anyOf = property.anyOf as JsonSchema[] | undefined;
  return allowsNull(property.type) || (anyOf?.some((option) => allowsNull(option.type)) ?? false);
}

function nullable(property: JsonSchema): JsonSchema {
  const { description, ...rest } = property;
  return compactNullables({
    ...(description === undefined ? {} : { description }),
    anyOf: [rest, { type: 'null' }],
  }) as JsonSchema;
}
