import { JSONPath } from 'jsonpath-plus';
import type { JsonMatch } from 'spoolforge';
import { describe, expect, it } from 'vitest';
import { jsonArtifact } from '../helpers/json-artifacts.js';

/** `value` as indented JSON, parsed whole up to `maxParseBytes`. */
const prettyArtifact = (value: unknown, maxParseBytes: number) =>
  jsonArtifact(JSON.stringify(value, null, 1), { maxParseBytes });

/** Records whose nested objects carry the same field names as the records themselves. */
const records = Array.from({ length: 400 }, (_, index) => ({
  id: index,
  status: [200, 404, 500, 503, '500', null][index % 6],
  name: index % 7 ? `user-${index}` : null,
  tags: index % 3 ? ['a', `t${index % 4}`] : [],
  nested: index % 4 ? { status: 503, id: -index, inner: { status: 500 } } : null,
  ...(index % 9 === 0 ? { 'odd key': index, constructor: 'own' } : {}),
}));

/** Filters the compiled evaluator takes, and some it leaves to jsonpath-plus. */
const filters = [
  '@.status >= 500',
  '@.status == 500',
  '@.status === 500',
  '@.status != 500 && @.status !== null',
  '!(@.status < 500) || @.id % 50 == 0',
  '@.id * 2 - 1 > 700 / 2 + 10',
  '-@.id < -395',
  '+@.status >= 500',
  "typeof @.status == 'string'",
  '@.nested.status == 503',
  "@.nested['status'] == 503 && @.nested.inner.status == 500",
  '@.tags[1] == "t3"',
  "@.name.startsWith('user-1') && @.name.endsWith('9')",
  "@.tags.includes('t2')",
  "@['odd key'] >= 0",
  "@.constructor == 'own'",
  '@.constructor',
  '@.missing.deeper == 1 || @.id == 3',
  "@property == '7' || @root",
  '@.id == 1e2 || @.id == 2.5e1 || @.name == "user-\\x31"',
  'true && @.id < 2',
  'undefined === @.missing && @.id < 2',
  // Outside the compiled subset: jsonpath-plus evaluates these itself.
  '@.id & 1 && @.id < 10',
  '@.id > 390 ? true : false',
  '@.status in [500]',
];

describe('JSONPath filters on entries', () => {
  for (const [mode, maxParseBytes] of [
    ['parsed whole', 1 << 30],
    ['indexed by byte offset', 1024],
  ] as const) {
    it.each(filters)(
      `${mode}: $[?(%s)] matches only entries, as jsonpath-plus does`,
      async (filter) => {
        const artifact = await prettyArtifact(records, maxParseBytes);
        for (const path of [`$[?(${filter})]`, `$[?(${filter})].id`, `$[?(${filter})].nested.id`]) {
          const expected = JSONPath({
            path,
            json: records,
            resultType: 'all',
            eval: 'safe',
            ignoreEvalErrors: true,
          }) as JsonMatch[];
          const actual = await artifact.query(path, { limit: 10_000 });
          const pairs = (matches: JsonMatch[]) =>
            matches.map(({ path, value }) => ({ path, value }));
          expect(pairs(actual), path).toEqual(pairs(expected));
        }
      },
    );
  }

  it('tests a filter on each entry, never on the objects nested in it', async () => {
    const artifact = await prettyArtifact(records, 1024);
    const matches = await artifact.query('$[?(@.status === 503)].id', { limit: 10_000 });
    const expected = records.filter((record) => record.status === 503).map((record) => record.id);
    expect(matches.map((match) => match.value)).toEqual(expected);
    expect(matches[0]?.path).toBe("$[3]['id']");
  });

  it('evaluates nothing as code: a constructor chain or an assignment matches nothing', async () => {
    const artifact = await prettyArtifact(records, 1024);
    const exit = "$[?(@.name.constructor.constructor('return process')().exit(7))]";
    expect(await artifact.query(exit)).toEqual([]);
    expect(await artifact.query('$[?(@.id = 5)]')).toEqual([]);
    expect(await artifact.query('$[?(@.name.__proto__ && @.id == 1)]')).toEqual([]);
  });

  it('plucks a field past entries that are null, 0, false or empty', async () => {
    const mixed = [{ id: 1 }, null, 0, false, '', { id: 2 }, 'text', [5]];
    for (const maxParseBytes of [1 << 30, 16]) {
      const artifact = await prettyArtifact(mixed, maxParseBytes);
      const ids = await artifact.query('$[*].id');
      expect(ids).toEqual([
        { path: "$[0]['id']", value: 1 },
        { path: "$[5]['id']", value: 2 },
      ]);
      expect(await artifact.query('$[*].length')).toEqual([
        { path: "$[6]['length']", value: 4 },
        { path: "$[7]['length']", value: 1 },
      ]);
    }
  });
});
