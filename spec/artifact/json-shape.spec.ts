import { JsonShape } from 'spoolforge/engine';
import { describe, expect, it } from 'vitest';

describe('JsonShape', () => {
  it('reads an own __proto__ member as itself, with the paths and counts of every member', () => {
    const shape = new JsonShape();
    for (const text of ['{"__proto__":{"x":1},"a":[1,"s"]}', '{"a":[],"b c":null}'])
      shape.add('$[*]', JSON.parse(text));
    const fields = Object.fromEntries(shape.fields().map((field) => [field.path, field]));
    expect(Object.keys(fields)).toEqual([
      '$[*]',
      '$[*].__proto__',
      '$[*].__proto__.x',
      '$[*].a',
      '$[*].a[*]',
      "$[*]['b c']",
    ]);
    expect(fields['$[*].__proto__']).toMatchObject({ count: 1, types: { object: 1 } });
    expect(fields['$[*].__proto__.x']).toMatchObject({ examples: { number: 1 } });
    expect(fields['$[*].a']).toMatchObject({ count: 2, types: { array: 2 }, parentObjects: 2 });
    expect(fields['$[*].a[*]']).toMatchObject({ types: { number: 1, string: 1 } });
    expect(fields["$[*]['b c']"]).toMatchObject({ types: { null: 1 }, parentObjects: 2 });
  });

  it('keeps maxFields paths, counts every dropped occurrence, and stops at maxDepth', () => {
    const shape = new JsonShape({ maxFields: 3, maxDepth: 2 });
    for (let id = 0; id < 4; id++)
      shape.add('$[*]', { id, [`key${id}`]: id, deep: { a: { b: 1 } } });
    expect(shape.fields().map((field) => field.path)).toEqual(['$[*]', '$[*].id', '$[*].key0']);
    // Per record: `deep` and key1..key3 (after the first) are dropped, with nothing under them.
    expect(shape.droppedFields).toEqual({
      count: 4 + 3,
      examples: ['$[*].deep', '$[*].key1', '$[*].key2', '$[*].key3'],
    });
    const deep = new JsonShape({ maxDepth: 1 });
    deep.add('$', { a: { b: 1 }, c: 'x' });
    expect(deep.fields().map((field) => field.path)).toEqual(['$', '$.a', '$.c']);
  });
  it('shapes own members only, as Object.keys lists them, whatever the prototype holds', () => {
    const shape = new JsonShape();
    Object.defineProperty(Object.prototype, 'inherited', {
      value: 1,
      enumerable: true,
      configurable: true,
    });
    try {
      for (const text of ['{"a":1,"b":2}', '{"a":3,"b":4}']) shape.add('$[*]', JSON.parse(text));
    } finally {
      delete (Object.prototype as { inherited?: number }).inherited;
    }
    expect(shape.fields().map((field) => field.path)).toEqual(['$[*]', '$[*].a', '$[*].b']);
  });
});
