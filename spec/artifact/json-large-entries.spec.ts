import type { SpooledJsonArtifact, SpooledJsonArtifactOptions } from 'spoolforge';
import { describe, expect, it } from 'vitest';
import { invokeOnArtifact } from '../helpers/forged-tools.js';
import { failure } from '../helpers/http-reader.js';
import { jsonArtifact } from '../helpers/json-artifacts.js';

// Entries past 2,000 bytes are too large to parse: the documents stay small.
const options: SpooledJsonArtifactOptions = { maxParseBytes: 2_000 };
/** `value` as JSON, entries past 2,000 bytes too large to parse unless `options` say otherwise. */
const valueArtifact = (value: unknown, { maxParseBytes } = options) =>
  jsonArtifact(JSON.stringify(value), maxParseBytes ? { maxParseBytes } : {});

const items = (length: number) =>
  Array.from({ length }, (_, id) => ({ id, name: `n${id}`, pad: 'p'.repeat(40) }));

/** Calls `artifact_json` with operation `op`, as a model would. */
async function tool(artifact: SpooledJsonArtifact, op: string, input: Record<string, unknown>) {
  return (await invokeOnArtifact(artifact, 'artifact_json', { op, ...input })).trimEnd();
}

describe('a document with an entry too large to parse', () => {
  it('hands out the entries before it, then fails on it unless large ones are asked for', async () => {
    const artifact = await valueArtifact([1, 2, 'x'.repeat(3_000), 4]);
    const document = await artifact.document();
    const seen: unknown[] = [];
    const walk = async () => {
      for await (const entry of document.entries()) seen.push(entry.value);
    };
    await expect(walk()).rejects.toMatchObject({ code: 'E_ARTIFACT_TOO_LARGE' });
    expect(seen).toEqual([1, 2]);
    const all: unknown[] = [];
    for await (const entry of document.entries({ large: true }))
      all.push(entry.large ? entry.large.type : entry.value);
    expect(all).toEqual([1, 2, 'string', 4]);
  });

  it('answers queries that do not need that entry, and describes it without parsing it', async () => {
    const artifact = await valueArtifact({ items: items(200), meta: { total: 200 } });
    expect(await tool(artifact, 'get', { path: '$.meta.total' })).toBe(
      "$['meta']['total'] = 200\n1 match.",
    );
    expect(await tool(artifact, 'keys', { path: '$' })).toBe(
      '$: 2 keys\n"items": array (200 elements)\n"meta": object (1 keys)',
    );
    const shape = await tool(artifact, 'shape', {});
    expect(shape).toMatch(/^\$: object \(2 keys\); 202 values scanned/);
    expect(shape).toContain("$['items']: array 1");
    expect(shape).toContain("$['items'][*].name: string 200 (in 100% of parents)");
    expect(shape).toContain("$['meta'].total: number 1");
    const whole = await tool(artifact, 'get', { path: '$' });
    expect(whole.split('\n').slice(0, 3)).toEqual([
      '$: object (2 keys)',
      "$['items']: array (200 elements), too large to show; query inside it ($['items'][0]) or slice it",
      '$[\'meta\'] = {"total":200}',
    ]);
    // A query that needs the entry whole still fails, naming it and how to reach inside.
    const filter = tool(artifact, 'filter', { path: '@.total > 1' });
    const error = await failure(filter, 'E_ARTIFACT_TOO_LARGE');
    expect(error.message).toMatch(
      /^\$\['items'\] \(array, [\d.]+ KiB\) is larger than maxParseBytes .*starts with \$\['items'\]/,
    );
  });

  it('does the same inside an entry it descended into', async () => {
    const artifact = await valueArtifact({ a: { b: items(200), c: 1 } });
    expect(await tool(artifact, 'get', { path: '$.a.c' })).toBe("$['a']['c'] = 1\n1 match.");
    expect(await tool(artifact, 'keys', { path: '$.a' })).toBe(
      '$.a: 2 keys\n"b": array (200 elements)\n"c": number',
    );
    expect(await tool(artifact, 'shape', { path: '$.a' })).toContain(
      "$['a']['b'][*].id: number 200",
    );
  });

  it('gives the type and size of a large entry from its index; * is always the wildcard', async () => {
    const artifact = await valueArtifact({ '*': items(100), s: 'z'.repeat(5_000), n: 1 });
    expect(await tool(artifact, 'type', { path: '$.s' })).toBe(
      "$['s']: string (4.9 KiB, too large to parse)",
    );
    expect(await tool(artifact, 'length', { path: '$.*' })).toBe(
      "$['*']: array (100 elements)\n$['s']: string (4.9 KiB, too large to parse)\n$['n']: number (no length)",
    );
  });

  it('plucks from the elements of a large array named first in the path', async () => {
    const artifact = await valueArtifact({ items: items(200), meta: { total: 200 } });
    const plucked = await tool(artifact, 'pluck', { path: 'items[*].name' });
    expect(plucked.split('\n').slice(0, 2)).toEqual([
      "$['items'][0]['name'] = \"n0\"",
      "$['items'][1]['name'] = \"n1\"",
    ]);
    expect(plucked).toContain("$['items'][199]['name'] = \"n199\"\n200 matches.");
    // A path inside each top-level entry cannot read the large one; the error says what to write.
    const error = await failure(tool(artifact, 'pluck', { path: 'name' }), 'E_ARTIFACT_TOO_LARGE');
    expect(error.message).toContain(
      `artifact_json op "pluck" reads its path inside each top-level entry; to pluck from the elements of this array, start the path with its key: ['items'][*].name (as op "get" with $['items'][*].name does)`,
    );
    expect(await tool(artifact, 'pluck', { path: "['items'][*].name" })).toBe(plucked);
  });

  it('descends by the root type: an object key "0", a negative index, a key with a quote', async () => {
    const object = await valueArtifact({ '0': items(100), "it'ems": items(100) });
    expect(await tool(object, 'get', { path: "$['0'][3].id" })).toBe(
      "$['0'][3]['id'] = 3\n1 match.",
    );
    expect(await tool(object, 'get', { path: "$['it\\'ems'][4].id" })).toBe(
      "$['it\\'ems'][4]['id'] = 4\n1 match.",
    );
    expect(await tool(object, 'keys', { path: '$' })).toContain('"it\'ems": array (100 elements)');
    const quoted = await failure(
      tool(object, 'length', { path: '$["it\'ems"]' }),
      'E_INVALID_TOOL_ARGS',
    );
    expect(quoted.message).toContain("write a key with a ' as ['it\\'s']");

    const arrays = await valueArtifact(Array.from({ length: 70 }, (_, index) => items(50 + index)));
    expect(await tool(arrays, 'get', { path: '$[-1][3].id' })).toBe("$[69][3]['id'] = 3\n1 match.");
    // Every large entry is remembered, not only the first 64.
    expect(await tool(arrays, 'length', { path: '$[69]' })).toBe('$[69]: array (119 elements)');
    expect(await tool(arrays, 'keys', { path: '$' })).toBe(
      'No object at $[*]: $: array (70 elements).',
    );
  });

  it('turns every malformed path into E_INVALID_TOOL_ARGS naming it', async () => {
    // Indexed with a large `items`, and parsed whole: both fail alike.
    const objects = [
      await valueArtifact({ items: items(200) }),
      await valueArtifact({ items: items(3) }, {}),
    ];
    const arrays = [await valueArtifact(items(200)), await valueArtifact(items(3), {})];
    const cases = [
      ...objects.flatMap((artifact) => [
        [artifact, '$.items[?(@.id>1'],
        [artifact, '$.items[(@.length-1)]'],
      ]),
      ...arrays.flatMap((artifact) => [
        [artifact, '$[?(@.id>1'],
        [artifact, '$[(@.length-1)]'],
      ]),
    ] as [SpooledJsonArtifact, string][];
    for (const [artifact, path] of cases) {
      const error = await failure(artifact.query(path), 'E_INVALID_TOOL_ARGS');
      expect(error.message).toContain(`Invalid JSONPath ${path}: `);
    }
  });

  it('opens a large entry once for concurrent queries, whatever one caller aborts', async () => {
    const artifact = await valueArtifact({ items: items(2_000) });
    await artifact.document();
    const controller = new AbortController();
    const aborted = artifact.query('$.items[3].id', { signal: controller.signal });
    const other = artifact.query('$.items[4].id');
    controller.abort();
    await failure(aborted, 'E_ABORTED');
    expect(await other).toEqual([{ path: "$['items'][4]['id']", value: 4 }]);
  });
});
