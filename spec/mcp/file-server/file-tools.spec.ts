// createFileServer through the real MCP SDK client: every tool on real files (a multi-MB log,
// CRLF, a 5 MB single line, JSON, JSONL, Markdown), continuation notes that are calls a model
// can send back, and the errors a model reads.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectFileServer, textOf } from './file-server-helpers.js';

let root: string;
let second: string;
const logLines = 200_000;
/** 1-based lines of the log that say ERROR. */
const errorLines = [1_234, 150_000];

function logLine(line: number): string {
  const level = errorLines.includes(line) ? 'ERROR disk full' : 'INFO ok';
  return `2026-11-24T10:00:00Z step ${line} ${level}`;
}

const records = Array.from({ length: 20_000 }, (_, id) => ({
  id,
  status: id % 7 ? 200 : 500,
  path: `/api/${id}`,
}));

const markdown = [
  '# Guide',
  '',
  'Intro text.',
  '',
  '## Install',
  '',
  '```sh',
  'npm install spoolforge',
  '```',
  '',
  '## Use',
  '',
  'Query [logs](https://example.com/logs).',
  '',
].join('\n');

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'spoolforge-file-server-'));
  second = await mkdtemp(join(tmpdir(), 'spoolforge-file-server-second-'));
  const log = Array.from({ length: logLines }, (_, index) => `${logLine(index + 1)}\n`).join('');
  await writeFile(join(root, 'build.log'), log);
  await writeFile(join(root, 'crlf.log'), 'one\r\ntwo ERROR\r\nthree');
  await writeFile(join(root, 'data.json'), JSON.stringify({ records }));
  await writeFile(
    join(root, 'rows.jsonl'),
    records.map((row) => `${JSON.stringify(row)}\n`).join(''),
  );
  await writeFile(join(root, 'guide.md'), markdown);
  const minified = `${'x'.repeat(2_500_000)}NEEDLE${'y'.repeat(2_500_000)}`;
  await writeFile(join(root, 'minified.txt'), minified);
  await writeFile(join(second, 'other.log'), 'second root\n');
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
  await rm(second, { recursive: true, force: true });
});

/** The call a cut result's note names, as the model would send it back. */
function continuationOf(text: string): { name: string; args: Record<string, unknown> } {
  const match = /continue with (file_\w+) (\{.*\})\]/i.exec(text);
  if (!match?.[1] || !match[2]) throw new Error(`no continuation in ${text.slice(-300)}`);
  return { name: match[1], args: JSON.parse(match[2]) };
}

describe('file server tools', () => {
  it('lists the six tools, path for callId, within 1,000 o200k tokens of definitions', async () => {
    const { client } = await connectFileServer({ roots: [root] });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'file_read',
      'file_grep',
      'file_stat',
      'file_list',
      'file_json',
      'file_md',
    ]);
    const properties = (name: string) =>
      Object.keys(tools.find((tool) => tool.name === name)?.inputSchema.properties ?? {});
    expect(properties('file_read')).toEqual(['path', 'start', 'end', 'last']);
    expect(properties('file_grep')).toEqual([
      'path',
      'pattern',
      'fixed',
      'ignoreCase',
      'invert',
      'context',
      'maxCount',
      'startLine',
    ]);
    expect(properties('file_json')).toEqual([
      'path',
      'op',
      'jsonPath',
      'start',
      'end',
      'startIndex',
    ]);
    expect(tools.find((tool) => tool.name === 'file_read')?.description).toContain('of a file');
    expect(JSON.stringify(tools)).not.toMatch(/callId|spooled/);
    expect(countTokens(JSON.stringify(tools))).toBeLessThan(1_000);
  });

  it('file_read: 1-based inclusive ranges, the last N, and the first lines by default', async () => {
    const server = await connectFileServer({ roots: [root] });
    expect(
      await server.text('file_read', { path: 'build.log', start: 149_999, end: 150_001 }),
    ).toBe(
      `lines 149999–150001 of ${logLines}:\n149999:${logLine(149_999)}\n150000:${logLine(150_000)}\n150001:${logLine(150_001)}\n`,
    );
    expect(await server.text('file_read', { path: join(root, 'build.log'), last: 2 })).toBe(
      `lines 199999–200000 of ${logLines}:\n199999:${logLine(199_999)}\n200000:${logLine(200_000)}\n`,
    );
    const head = await server.text('file_read', { path: 'build.log', end: 3 });
    expect(head).toBe(
      `lines 1–3 of ${logLines}:\n1:${logLine(1)}\n2:${logLine(2)}\n3:${logLine(3)}\n`,
    );
  });

  it('file_read of a whole 8 MB log is cut at 50 KiB with the file_read call that continues it', async () => {
    const server = await connectFileServer({ roots: [root] });
    const text = await server.text('file_read', { path: 'build.log' });
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(50 * 1024);
    const next = continuationOf(text);
    expect(next.name).toBe('file_read');
    expect(next.args).toMatchObject({ path: 'build.log', end: logLines });
    const lastShown = Number(/(\d+):[^\n]*\n\[cut/.exec(text)?.[1]);
    expect(next.args.start).toBe(lastShown + 1);
    const continued = await server.text(next.name, next.args);
    expect(continued.startsWith(`lines ${lastShown + 1}–`)).toBe(true);
    expect(continued).toContain(`\n${lastShown + 1}:${logLine(lastShown + 1)}\n`);
  });

  it('limits bound every result', async () => {
    const server = await connectFileServer({
      roots: [root],
      limits: { maxResultBytes: 4096, maxLineChars: 100 },
    });
    const text = await server.text('file_read', { path: 'build.log' });
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(4096);
    expect(text).toContain('[cut at 4.0 KiB. Continue with file_read {"path":"build.log","start":');
    const line = await server.text('file_read', { path: 'minified.txt' });
    expect(line).toMatch(
      /^lines 1–1 of 1:\n1:x{100}… \[line cut: 100 chars of a 4\.8 MiB line; file_grep shows the text around a match\]\n$/,
    );
  });

  it('file_grep: numbered matches, context with --, and a cut that continues from startLine', async () => {
    const server = await connectFileServer({ roots: [root] });
    expect(await server.text('file_grep', { path: 'build.log', pattern: 'ERROR' })).toBe(
      `1234:${logLine(1234)}\n150000:${logLine(150_000)}\n2 matching lines.\n`,
    );
    expect(
      await server.text('file_grep', {
        path: 'build.log',
        pattern: 'disk FULL',
        ignoreCase: true,
        context: 1,
        maxCount: 2,
      }),
    ).toBe(
      [
        `1233-${logLine(1233)}`,
        `1234:${logLine(1234)}`,
        `1235-${logLine(1235)}`,
        '--',
        `149999-${logLine(149_999)}`,
        `150000:${logLine(150_000)}`,
        `150001-${logLine(150_001)}`,
        '2 matching lines (stopped at maxCount).\n',
      ].join('\n'),
    );
    const cut = await server.text('file_grep', { path: 'build.log', pattern: 'INFO', fixed: true });
    expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(50 * 1024);
    const next = continuationOf(cut);
    expect(next).toMatchObject({
      name: 'file_grep',
      args: { path: 'build.log', pattern: 'INFO', fixed: true },
    });
    const continued = await server.text(next.name, { ...next.args, maxCount: 1 });
    expect(continued).toBe(
      `${next.args.startLine}:${logLine(Number(next.args.startLine))}\n1 matching line (stopped at maxCount).\n`,
    );
  });

  it('CRLF lines keep their \\r, as GNU tools do; a last line without \\n counts', async () => {
    const server = await connectFileServer({ roots: [root] });
    expect(await server.text('file_read', { path: 'crlf.log' })).toBe(
      'lines 1–3 of 3:\n1:one\r\n2:two ERROR\r\n3:three\n',
    );
    expect(await server.text('file_grep', { path: 'crlf.log', pattern: 'ERROR.$' })).toBe(
      '2:two ERROR\r\n1 matching line.\n',
    );
    expect(JSON.parse(await server.text('file_stat', { path: 'crlf.log' }))).toEqual({
      bytes: 21,
      lines: 3,
      kind: 'text',
    });
  });

  it('a 5 MB single line is shown cut with a note, and file_grep shows the text around a match', async () => {
    const server = await connectFileServer({ roots: [root] });
    const read = await server.text('file_read', { path: 'minified.txt' });
    expect(Buffer.byteLength(read)).toBeLessThan(10 * 1024);
    expect(read).toMatch(/^lines 1–1 of 1:\n1:x{100}/);
    expect(read).toContain('line; file_grep shows the text around a match]');
    const grep = await server.text('file_grep', {
      path: 'minified.txt',
      pattern: 'NEEDLE',
      fixed: true,
    });
    expect(Buffer.byteLength(grep)).toBeLessThan(10 * 1024);
    expect(grep).toMatch(
      /^1:…x+NEEDLEy+… \[line cut: chars [\d,]+–[\d,]+ of 5,000,006\]\n1 matching line\.\n$/,
    );
  });

  it('file_stat: bytes, lines and kind of each kind of file', async () => {
    const server = await connectFileServer({ roots: [root] });
    const stat = async (path: string) => JSON.parse(await server.text('file_stat', { path }));
    expect(await stat('build.log')).toEqual({
      bytes: Array.from({ length: logLines }, (_, index) => logLine(index + 1).length + 1).reduce(
        (a, b) => a + b,
      ),
      lines: logLines,
      kind: 'text',
    });
    expect(await stat('data.json')).toMatchObject({ lines: 1, kind: 'json' });
    expect(await stat('rows.jsonl')).toMatchObject({ lines: records.length, kind: 'jsonl' });
    expect(await stat('guide.md')).toMatchObject({ lines: 13, kind: 'markdown' });
  });

  it('file_json: the JSON tool with jsonPath for its path, cut results continue as file_json', async () => {
    const server = await connectFileServer({ roots: [root] });
    expect(
      await server.text('file_json', { path: 'data.json', op: 'length', jsonPath: '$.records' }),
    ).toContain('20,000');
    expect(
      await server.text('file_json', {
        path: 'data.json',
        op: 'get',
        jsonPath: '$.records[7].status',
      }),
    ).toBe("$['records'][7]['status'] = 500\n1 match.\n");
    expect(
      await server.text('file_json', { path: 'rows.jsonl', op: 'filter', jsonPath: '@.id == 14' }),
    ).toContain('"path":"/api/14"');
    const cut = await server.text('file_json', {
      path: 'rows.jsonl',
      op: 'slice',
      start: 0,
      end: 20_000,
    });
    const next = continuationOf(cut);
    expect(next).toMatchObject({
      name: 'file_json',
      args: { path: 'rows.jsonl', op: 'slice', end: 20_000 },
    });
    expect(await server.text(next.name, next.args)).toContain(`"id":${next.args.start}`);
    expect(
      await server.text('file_json', { path: 'data.json', op: 'get', jsonPath: '$.nothing' }),
    ).toContain('file_json op "shape" shows the paths that exist');
    expect(await server.error('file_json', { path: 'data.json', op: 'keys', start: 1 })).toBe(
      'Error (E_INVALID_TOOL_ARGS): file_json op "keys" takes jsonPath, startIndex, not start',
    );
    expect(await server.error('file_json', { path: 'data.json', op: 'get' })).toBe(
      'Error (E_INVALID_TOOL_ARGS): file_json op "get" needs a jsonPath',
    );
  });

  it('file_md: headings, a section, and a missing section names the file_md call that lists them all', async () => {
    const server = await connectFileServer({ roots: [root] });
    expect(await server.text('file_md', { path: 'guide.md', op: 'headings' })).toBe(
      '1:# Guide\n5:## Install\n11:## Use\n3 headings.\n',
    );
    expect(
      await server.text('file_md', { path: 'guide.md', op: 'section', heading: 'Install' }),
    ).toContain('8:npm install spoolforge');
    const missing = await server.error('file_md', { path: 'guide.md', op: 'section', index: 9 });
    expect(missing).toContain('file_md {"path":"guide.md","op":"sections"}');
    expect(missing).not.toMatch(/artifact_|callId/);
  });

  it('file_list: the roots and URL prefixes without a path, a directory with sizes with one', async () => {
    const server = await connectFileServer({
      roots: [root, second],
      allowUrls: ['https://ci.example.com/logs/'],
    });
    expect(await server.text('file_list', {})).toBe(
      `Roots (paths are absolute or relative to the first): ${root}/, ${second}/\nURL prefixes: https://ci.example.com/logs/`,
    );
    const listing = await server.text('file_list', { path: '.' });
    expect(listing.split('\n')[0]).toBe(`${root}: 6 entries`);
    expect(listing).toMatch(/\ncrlf\.log {2}21 \(21 B\) {2}modified \d{4}-\d\d-\d\dT\d\d:\d\dZ\n/);
    expect(await server.text('file_read', { path: join(second, 'other.log') })).toBe(
      'lines 1–1 of 1:\n1:second root\n',
    );
  });

  it('every mistake is an isError result that says what to do, and the server keeps answering', async () => {
    const server = await connectFileServer({ roots: [root] });
    expect(await server.error('file_read', { path: 'missing.log' })).toBe(
      'Error (E_FILE_NOT_FOUND): missing.log: No such file or directory',
    );
    expect(await server.error('file_read', { path: '.' })).toBe(
      'Error (E_NOT_A_FILE): .: Is a directory (file_list lists it)',
    );
    expect(await server.error('file_grep', { path: 'build.log', pattern: '(' })).toMatch(
      /^Error \(E_REGEX_INVALID\)/,
    );
    expect(await server.error('file_json', { path: 'build.log', op: 'shape' })).toBe(
      'Error (E_INVALID_TOOL_ARGS): file_json does not query build.log: it is text (by its first 64 KiB); query it with file_read, file_grep',
    );
    expect(await server.error('file_md', { path: 'data.json', op: 'headings' })).toContain(
      'file_read, file_grep, file_json',
    );
    expect(await server.error('file_read', { path: 'build.log', callId: 'x' })).toContain(
      'unknown argument "callId"; it takes path, start, end, last',
    );
    expect(await server.error('file_read', { path: 'build.log', start: 5, end: 2 })).toBe(
      'Error (E_INVALID_TOOL_ARGS): end (2) is before start (5)',
    );
    expect(await server.error('file_list', { path: 'build.log' })).toContain(
      'file_stat describes it',
    );
    expect(await server.error('file_nope', {})).toMatch(/^Error \(E_UNKNOWN_TOOL\)/);
    expect(textOf(await server.call('file_read', { path: 'crlf.log', last: 1 }))).toBe(
      'lines 3–3 of 3:\n3:three\n',
    );
  });
});
