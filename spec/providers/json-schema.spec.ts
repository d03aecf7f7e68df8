import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toJsonSchema, toStrictJsonSchema } from '../../src/providers/json-schema.js';

const schema = z.object({
  pattern: z.string(),
  fixed: z.boolean().nullish(),
  count: z.number().int().min(0).optional(),
  nested: z.object({ deep: z.string().optional() }).optional(),
  closed: z.strictObject({}),
});

describe('JSON Schema for providers', () => {
  it('keeps the plain schema honest about what is optional, without $schema or safe-integer bounds', () => {
    const plain = toJsonSchema(schema);
    expect(plain.$schema).toBeUndefined();
    expect(plain.required).toEqual(['pattern', 'closed']);
    expect(JSON.stringify(plain)).not.toContain(String(Number.MAX_SAFE_INTEGER));
  });

  it('meets OpenAI strict mode: all required, optional made nullable, no extra properties, no {"not":{}}', () => {
    const strict = toStrictJsonSchema(schema) as {
      properties: Record<string, Record<string, unknown>>;
      required: string[];
      additionalProperties: boolean;
    };
    expect(strict.required).toEqual(['pattern', 'fixed', 'count', 'nested', 'closed']);
    expect(strict.additionalProperties).toBe(false);
    expect(strict.properties.fixed).toEqual({ type: ['boolean', 'null'] });
    // A nullable scalar is one type list (eight tokens less than an anyOf on every request).
    expect(strict.properties.count).toEqual({ type: ['integer', 'null'], minimum: 0 });
    expect(strict.properties.nested).toEqual({
      anyOf: [
        {
          type: 'object',
          properties: { deep: { type: ['string', 'null'] } },
          required: ['deep'],
          additionalProperties: false,
        },
        { type: 'null' },
      ],
    });
    expect(JSON.stringify(strict)).not.toContain('"not":{}');
  });

  it('writes a nullable scalar as a type list only where null still passes every keyword', () => {
    const plain = toJsonSchema(
      z.object({
        line: z.number().int().min(1).max(9).nullish(),
        mode: z.enum(['a', 'b']).nullish(),
        word: z.string().regex(/^x/).nullish(),
      }),
    ) as { properties: Record<string, unknown> };
    expect(plain.properties.line).toEqual({ type: ['integer', 'null'], minimum: 1, maximum: 9 });
    // An enum would refuse null if merged; keywords not listed as type-only (pattern) stay as is.
    expect(plain.properties.mode).toEqual({
      anyOf: [{ type: 'string', enum: ['a', 'b'] }, { type: 'null' }],
    });
    expect(plain.properties.word).toMatchObject({ anyOf: [{ type: 'string' }, { type: 'null' }] });
  });
});
