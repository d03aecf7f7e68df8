import { JSONPath } from 'jsonpath-plus';
import {
  baseToolMethods,
  DispatchContext,
  defaultArtifactKinds,
  type JsonMatch,
  SpooledArtifact,
  SpooledJsonArtifact,
  SpoolforgeError,
  spool,
  ToolCall,
} from 'spoolforge';
import { forgeArtifactTools } from 'spoolforge/engine';
import { describe, expect, it } from 'vitest';
import { invokeOnArtifact } from '../helpers/forged-tools.js';
import { closeAfterTest, jsonArtifact } from '../helpers/json-artifacts.js';

const rows = Array.from({ length: 3_000 }, (_, index) => ({
  id: index,
  status: index % 97 === 0 ? 503 : index % 31 === 0 ? 404 : 200,
  path: `/api/items/${index}`,
  user: index % 3 ? { id: index * 7, name: `user "${index}"` } : null,
  tags: index % 5 ? ['a', `t${index % 4}`] : [],
  ...(index % 500 === 1 ? { error: { code: 'E_X', detail: { retries: index % 7 } } } : {}),
}));
const pretty = JSON.stringify(rows, null, 2);

/** Both ways of holding a document: parsed whole, and indexed by byte offset (maxParseBytes 1 KiB). */
const modes = [
  { name: 'parsed whole', maxParseBytes: 1 << 30 },
  { name: 'indexed by byte offset', maxParseBytes: 1024 },
];

/** Calls `artifact_json` as a model would: `input` holds `op` and that op's arguments. */
const artifactJson = (artifact: SpooledJsonArtifact, input: Record<string, unknown>) =>
  invokeOnArtifact(artifact, 'artifact_json', input, { limits: { maxResultBytes: 8 * 1024 } });

const tool = (artifact: SpooledJsonArtifact, op: string, input: Record<string, unknown>) =>
  artifactJson(artifact, { op, ...input });

const detectKind = (head: Uint8Array, options?: { complete?: boolean }) =>
  defaultArtifactKinds.sniff(head, options).name;

describe('kind detection', () => {
  const bytes = (text: string) => new TextEncoder().encode(text);
  it('tells JSON, JSONL, Markdown, text and binary apart from the first bytes', () => {
    expect(detectKind(bytes('{"a":1}\n{"a":2}\n'))).toBe('jsonl');
    expect(detectKind(bytes('[1,2]\n[3]\n'))).toBe('jsonl');
    expect(detectKind(bytes('{\n  "a": [1,\n  2]\n}\n'))).toBe('json');
    expect(detectKind(bytes('{"a":1}'))).toBe('json');
    // Cut short: valid as far as it goes.
    expect(detectKind(bytes('[{"a": 1}, {"b": "unfinished'))).toBe('json');
    expect(detectKind(bytes('[{"a": 1}, {"b": "unfinished'), { complete: true })).toBe('text');
    expect(detectKind(bytes('[INFO] build started\n[WARN] slow\n'))).toBe('text');
    expect(detectKind(bytes('# Title\n\nSome text.\n'))).toBe('markdown');
    expect(detectKind(bytes('---\ntitle: x\n---\nbody\n'))).toBe('markdown');
    expect(detectKind(bytes('#1 [internal] load build definition\n#1 DONE 0.0s\n'))).toBe('text');
    expect(detectKind(bytes('plain log line\nanother\n'))).toBe('text');
    expect(detectKind(new Uint8Array([0x89, 0x50, 0, 1]))).toBe('binary');
  });

  it('spool() picks SpooledJsonArtifact by sniffing or by media type; a declared kind wins', async () => {
    const sniffed = await spool('{"a":1}\n{"a":2}\n');
    const declared = await spool('{"a":1}', { mediaType: 'application/x-ndjson' });
    const text = await spool('just text\n');
    const plain = await spool('{"a":1}\n{"a":2}\n', { kind: 'text' });
    closeAfterTest(sniffed, declared, text, plain);
    expect(sniffed).toBeInstanceOf(SpooledJsonArtifact);
    expect(sniffed.kind).toBe('jsonl');
    expect(declared.kind).toBe('jsonl');
    expect(text.constructor).toBe(SpooledArtifact);
    expect(plain.constructor).toBe(SpooledArtifact);
  });

  it('matches declared media types exactly before families, ignoring parameters and case', () => {
    const kindOf = (mediaType: string) => defaultArtifactKinds.ofMediaType(mediaType)?.name;
    expect(kindOf('application/x-ndjson; charset=utf-8')).toBe('jsonl');
    expect(kindOf('application/json-seq')).toBe('jsonl');
    expect(kindOf('Application/JSON')).toBe('json');
    expect(kindOf('application/geo+json')).toBe('json');
    expect(kindOf('text/x-markdown')).toBe('markdown');
    expect(kindOf('text/csv')).toBe('text');
    expect(kindOf('application/octet-stream')).toBeUndefined();
    expect(defaultArtifactKinds.get('jsonl')?.mediaType).toBe('application/x-ndjson');
  });
});

describe.each(modes)('SpooledJsonArtifact, $name', ({ maxParseBytes, name }) => {
  it('is held as expected and counts entries', async () => {
    const artifact = await jsonArtifact(pretty, { maxParseBytes });
    const document = await artifact.document();
    expect(document.mode).toBe(name === 'parsed whole' ? 'parsed' : 'indexed');
    expect(await artifact.length()).toBe(rows.length);
  });

  const paths = [
    '$[0]',
    '$[2999].user.name',
    '$[-2:]',
    '$[10:40:7].id',
    '$[*].error',
    '$[?(@.status >= 500)].id',
    '$[?(@.user && @.user.id > 20000)].path',
    "$[?(@.tags.includes('t3') && @.status == 404)]",
    '$[0,3,2999].tags[0]',
    '[5].user',
    '$..retries',
  ];
  it.each(paths)('answers %s as jsonpath-plus does on the whole document', async (path) => {
    const artifact = await jsonArtifact(pretty, { maxParseBytes });
    const expected = JSONPath({
      path: path.startsWith('$') ? path : `$${path}`,
      json: rows,
      resultType: 'all',
      eval: 'safe',
      ignoreEvalErrors: true,
    }) as JsonMatch[];
    const actual = await artifact.query(path, { limit: 10_000 });
    const pairs = (matches: JsonMatch[]) => matches.map(({ path, value }) => ({ path, value }));
    expect(pairs(actual)).toEqual(pairs(expected));
    expect(actual.length).toBeGreaterThan(0);
  });

  it('infers a shape: field paths, types with counts, and examples', async () => {
    const artifact = await jsonArtifact(pretty, { maxParseBytes });
    const { shape, scanned } = await artifact.shape();
    expect(scanned).toBe(rows.length);
    const field = (path: string) => shape.fields().find((entry) => entry.path === path);
    expect(field('$[*].user')?.types).toEqual({ object: 2_000, null: 1_000 });
    expect(field('$[*].user.id')).toMatchObject({ count: 2_000, parentObjects: 2_000 });
    expect(field('$[*].status')?.types).toEqual({ number: 3_000 });
    expect(field('$[*].error.detail.retries')?.count).toBe(6);
    expect(field('$[*].tags[*]')).toMatchObject({ count: 4_800, examples: { string: 'a' } });
    const text = await tool(artifact, 'shape', {});
    expect(text).toContain('$: array (3,000 elements); 3,000 values scanned');
    expect(text).toContain('$[*].user: object 2,000, null 1,000 (in 100% of parents)');
  });

  it('reads an indexed array span by span as JSON.parse reads it whole: CRLF, odd spacing, escapes, any start', async () => {
    // Spans between checkpoints (64 KiB apart) are parsed at once; their edges fall between
    // entries separated by CRLF, tabs, and no space at all, holding \u00 escapes and UTF-8.
    const values = Array.from({ length: 6_000 }, (_, index) =>
      index % 7 === 0
        ? { id: index, text: `caf\u00e9 ${'x'.repeat(index % 50)}`, nested: [index, { é: true }] }
        : index % 11 === 0
          ? `plain ${index}`
          : index % 13 === 0
            ? null
            : { id: index, name: 'Jürgen "J" Müller', n: index / 3 },
    );
    const separators = [',', ',\r\n', ' ,\t', ',\n\n   '];
    const text = `[\r\n${values.map((value, index) => JSON.stringify(value) + (index < values.length - 1 ? separators[index % 4] : '')).join('')}\r\n]\r\n`;
    expect(text.length).toBeGreaterThan(4 * 64 * 1024);
    const artifact = await jsonArtifact(text, { maxParseBytes: 1024 });
    const all = await artifact.query('$[*]', { limit: 10_000 });
    expect(all.map((match) => match.value)).toEqual(JSON.parse(text));
    for (const start of [0, 1, 2_999, 4_321, 5_999]) {
      const slice = await artifact.query(`$[${start}:${start + 3}]`);
      expect(slice.map((match) => match.value)).toEqual(values.slice(start, start + 3));
    }
    const shape = await artifact.shape();
    expect(shape.scanned).toBe(6_000);
  });

  it('reports the line and column of the first problem in invalid JSON, and grep still works', async () => {
    const lines = pretty.split('\n');
    const bad = lines.findIndex((line, index) => index >= 3_000 && /"id": \d+,/.test(line));
    const original = lines[bad] as string;
    lines[bad] = original.replace(/: (\d+),/, ': $1 $1,');
    const artifact = await jsonArtifact(lines.join('\n'), { maxParseBytes });
    const error = await artifact
      .query('$[*].id', { limit: 10_000 })
      .catch((caught: unknown) => caught);
    expect(SpoolforgeError.isInstance(error)).toBe(true);
    expect((error as SpoolforgeError).code).toBe('E_INVALID_JSON');
    const column = original.indexOf(',') + 2;
    expect((error as Error).message).toContain(`line ${bad + 1}, column ${column}`);
    const found = await artifact.grep('"id": \\d+ \\d+');
    expect(found.lines.map((line) => line.lineNumber)).toEqual([bad]);
    await expect(tool(artifact, 'get', { path: '$[*].id' })).rejects.toThrow(`line ${bad + 1}`);
  });

  it('cuts a long result with the exact call that continues it, and the continuation goes on', async () => {
    const artifact = await jsonArtifact(pretty, { maxParseBytes });
    const first = await tool(artifact, 'get', { path: '$[*].path' });
    const next = /continue with artifact_json (\{.*\})\]/.exec(first)?.[1];
    expect(next).toBeDefined();
    const shown = [...first.matchAll(/^\$\[(\d+)\]/gm)].map((match) => Number(match[1]));
    const { startIndex } = JSON.parse(next as string) as { startIndex: number };
    expect(startIndex).toBe((shown.at(-1) as number) + 1);
    expect(next).toBe(
      `{"callId":"call_json","op":"get","path":"$[*].path","startIndex":${startIndex}}`,
    );
    const second = await artifactJson(artifact, JSON.parse(next as string));
    expect(second.startsWith(`$[${startIndex}]['path'] = "/api/items/${startIndex}"`)).toBe(true);
    expect(Buffer.byteLength(first)).toBeLessThanOrEqual(8 * 1024);
  });

  it('filter counts every match past what it shows; slice and pluck page through entries', async () => {
    const artifact = await jsonArtifact(pretty, { maxParseBytes });
    const filtered = await tool(artifact, 'filter', { path: '@.status == 404' });
    const expected = rows.filter((row) => row.status === 404).length;
    expect(filtered).toContain(`${expected} matches in all`);
    const sliced = await tool(artifact, 'slice', { start: 2_998 });
    expect(sliced).toContain('$[2998] = {"id":2998');
    expect(sliced).toContain('$[2999] = {"id":2999');
    const plucked = await tool(artifact, 'pluck', {
      path: 'user.id',
      startIndex: 2_995,
    });
    expect(plucked.split('\n').filter((line) => line.startsWith('$['))).toEqual([
      "$[2995]['user']['id'] = 20965",
      "$[2996]['user']['id'] = 20972",
      "$[2998]['user']['id'] = 20986",
      "$[2999]['user']['id'] = 20993",
    ]);
    const keys = await tool(artifact, 'keys', {});
    expect(keys).toContain('"error": object, 6');
  });

  it('never evaluates model input as code, and refuses regular expressions', async () => {
    const artifact = await jsonArtifact(pretty, { maxParseBytes });
    const sandboxEscape = "$[?(@.constructor.constructor('return process')().exit(7))]";
    expect(await artifact.query(sandboxEscape)).toEqual([]);
    await expect(artifact.query('$[?(@.path.match(/(a+)+$/))]')).rejects.toMatchObject({
      code: 'E_INVALID_TOOL_ARGS',
    });
    await expect(artifact.query('$[?(@.a ===)]')).rejects.toThrow(/Expected expression/);
  });
});

describe('big values and object roots', () => {
  it('cuts a value larger than a line and names the slice that continues it', async () => {
    const big = { items: Array.from({ length: 5_000 }, (_, index) => `item-${index}`) };
    const artifact = await jsonArtifact(JSON.stringify(big));
    const text = await tool(artifact, 'get', { path: '$.items' });
    const next = /continue with artifact_json (\{.*?\})\]/.exec(text)?.[1];
    const { start } = JSON.parse(next as string) as { start: number };
    expect(next).toBe(`{"callId":"call_json","op":"slice","path":"$['items']","start":${start}}`);
    expect(text).toContain(`"item-${start - 1}",…]`);
    const continued = await artifactJson(artifact, JSON.parse(next as string));
    expect(continued).toContain(`$['items'][${start}] = "item-${start}"`);
  });

  it.each(modes)('indexes the members of a root object ($name)', async ({ maxParseBytes }) => {
    const members = Object.fromEntries(
      Array.from({ length: 500 }, (_, index) => [`key ${index} "q"`, { n: index }]),
    );
    const artifact = await jsonArtifact(JSON.stringify(members, null, 1), { maxParseBytes });
    expect(await artifact.length()).toBe(500);
    expect(await artifact.query('$[\'key 7 "q"\'].n')).toEqual([
      { path: `$['key 7 "q"']['n']`, value: 7 },
    ]);
    expect((await artifact.query('$.*.n', { limit: 10_000 })).length).toBe(500);
    const keys = await tool(artifact, 'keys', {});
    expect(keys).toContain('"key 7 \\"q\\"": object (1 keys)');
  });
});

describe('JSONL', () => {
  const jsonl = `${rows.map((row) => JSON.stringify(row)).join('\n')}\n`;

  it('reads records by line: $[i] is line i+1, blank lines hold no record', async () => {
    const artifact = await jsonArtifact(jsonl.replace('\n', '\n\n'), { format: 'jsonl' });
    expect(artifact.kind).toBe('jsonl');
    expect(await artifact.length()).toBe(rows.length);
    expect(await artifact.query('$[2].id')).toEqual([{ path: "$[2]['id']", value: 1 }]);
    const type = await tool(artifact, 'type', {});
    expect(type).toBe(`$: JSONL, 3,000 records on 3,001 lines (record $[i] is line i+1)`);
  });

  it('names the line and column of a bad record', async () => {
    const artifact = await jsonArtifact(`${jsonl}{"id": 1, "oops"}\n`, { format: 'jsonl' });
    await expect(artifact.query('$[*].id', { limit: 10_000 })).rejects.toThrow(
      /line 3001, column 17: Expected ':' after a property name/,
    );
  });
});

describe('forging', () => {
  it('offers the base tools and artifact_json for JSON artifacts only', async () => {
    const json = await jsonArtifact(pretty);
    const text = await spool('plain text\n'.repeat(500));
    closeAfterTest(text);
    const jsonCall = new ToolCall({ id: 'call_a', name: 'rows', arguments: {} });
    jsonCall.results = json;
    const textCall = new ToolCall({ id: 'call_b', name: 'log', arguments: {} });
    textCall.results = text;
    const context = new DispatchContext({ turnToolCalls: [jsonCall, textCall] });
    const forged = forgeArtifactTools(defaultArtifactKinds, context);
    const names = forged.list().map((entry) => entry.name);
    expect(names).toEqual(
      expect.arrayContaining([...baseToolMethods.map((method) => method.name), 'artifact_json']),
    );
    expect(names.filter((name) => name.startsWith('artifact_json'))).toEqual(['artifact_json']);
    const jsonTool = forged.get('artifact_json');
    const input = { op: 'get', path: '$' };
    expect(jsonTool?.inputSchema.safeParse({ callId: 'call_a', ...input }).success).toBe(true);
    expect(jsonTool?.inputSchema.safeParse({ callId: 'call_b', ...input }).success).toBe(false);
  });
});
