import { spawnSync } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { serveFiles, startServer, urlOf } from '../helpers/http-servers.js';
import { type CommandResult, runCli, runCommand } from '../helpers/run-cli.js';
import { tempFile } from '../helpers/temp-files.js';

// Value for value against `jq -c`; skipped where jq is absent. Numbers are chosen so that both
// print them alike (jq writes 1e-07 and -0 where JavaScript writes 1e-7 and 0).
const jq = spawnSync('jq', ['--version']).status === 0;
if (!jq)
  console.warn('json-command: jq not found (apt-get install jq); its comparisons are skipped');

interface RequestRecord {
  id: number;
  status: number;
  path: string;
  ms: number;
  ok: boolean;
  user: { name: string; roles: string[] } | null;
  tags: string[];
}

function records(count: number): RequestRecord[] {
  return Array.from({ length: count }, (_, id) => ({
    id,
    status: [200, 201, 404, 500, 503][id % 5] ?? 200,
    path: id % 7 === 0 ? `/café/${id}?q="x"` : `/api/${id}`,
    ms: (id * 37) / 8,
    ok: id % 5 < 2,
    user: id % 3 === 0 ? null : { name: `user ${id} ✓`, roles: id % 2 ? ['admin'] : [] },
    tags: id % 4 === 0 ? [] : ['a', `t${id % 3}`],
  }));
}

const data = records(400);
const asJsonl = (rows: unknown[], ending = '\n') =>
  rows.map((row) => JSON.stringify(row)).join(ending) + ending;

/** JSONPath for the CLI, and the jq programs for an array and for JSONL that print the same. */
const queries: { path: string; array: string; lines: string }[] = [
  { path: '$[*]', array: '.[]', lines: '.' },
  {
    path: '$[?(@.status >= 500)].id',
    array: '.[] | select(.status >= 500) | .id',
    lines: 'select(.status >= 500) | .id',
  },
  {
    path: '$[?(@.status == 404 && @.ms > 100)][path,ms]',
    array: '.[] | select(.status == 404 and .ms > 100) | .path, .ms',
    lines: 'select(.status == 404 and .ms > 100) | .path, .ms',
  },
  { path: '$[10:14].user', array: '.[10:14][] | .user', lines: '-s|.[10:14][] | .user' },
  { path: '$[-2:]', array: '.[-2:][]', lines: '-s|.[-2:][]' },
  { path: '$[7]', array: '.[7]', lines: '-s|.[7]' },
  { path: '$[*].tags[*]', array: '.[] | .tags[]', lines: '.tags[]' },
  {
    path: '$[?(@.user && @.user.roles.length > 0)].user.name',
    array: '.[] | select(.user != null and (.user.roles | length) > 0) | .user.name',
    lines: 'select(.user != null and (.user.roles | length) > 0) | .user.name',
  },
];

async function jqOutput(program: string, path: string): Promise<CommandResult> {
  const [slurp, filter] = program.startsWith('-s|') ? [['-s'], program.slice(3)] : [[], program];
  return runCommand('jq', ['-c', ...slurp, filter, path]);
}

async function expectSameAsJq(path: string, program: string, file: string) {
  const [ours, theirs] = await Promise.all([runCli(['json', path, file]), jqOutput(program, file)]);
  expect(theirs.status).toBe(0);
  expect(ours.stderr).toBe('');
  expect(ours.stdout.toString()).toBe(theirs.stdout.toString());
  expect(ours.status).toBe(theirs.stdout.length > 0 ? 0 : 1);
}

describe.skipIf(!jq)('spoolforge json against jq -c', () => {
  const layouts = {
    'pretty JSON': () => tempFile(JSON.stringify(data, null, 2), 'rows.json'),
    'pretty JSON with CRLF': () =>
      tempFile(JSON.stringify(data, null, 2).replaceAll('\n', '\r\n'), 'rows.json'),
    'one-line minified JSON': () => tempFile(JSON.stringify(data), 'rows.json'),
  };
  for (const [layout, make] of Object.entries(layouts)) {
    it(`prints what jq prints on ${layout}`, async () => {
      const file = await make();
      for (const { path, array } of queries) await expectSameAsJq(path, array, file);
    });
  }

  for (const [layout, ending] of [
    ['JSONL', '\n'],
    ['JSONL with CRLF', '\r\n'],
  ] as const) {
    it(`prints what jq prints on ${layout}`, async () => {
      const file = await tempFile(asJsonl(data, ending), 'rows.jsonl');
      for (const { path, lines } of queries) await expectSameAsJq(path, lines, file);
    });
  }

  it('stops after --limit values, as head -n does on jq', async () => {
    const file = await tempFile(JSON.stringify(data), 'rows.json');
    const ours = await runCli(['json', '--limit', '3', '$[*].tags[*]', file]);
    const theirs = await jqOutput('.[] | .tags[]', file);
    const firstThree = theirs.stdout.toString().split('\n').slice(0, 3).join('\n');
    expect(ours.stdout.toString()).toBe(`${firstThree}\n`);
    expect(ours.status).toBe(0);
  });

  it('queries a 50 MB single-line JSON array entry by entry, from a file and from standard input', async () => {
    const big = records(150_000);
    const padded = JSON.stringify(big.map((row) => ({ ...row, pad: 'x'.repeat(230) })));
    expect(padded.length).toBeGreaterThan(50 * 1024 * 1024);
    const file = await tempFile(padded, 'big.json');
    const path = '$[?(@.status == 503 && @.id % 1000 == 4)].id';
    const program = '.[] | select(.status == 503 and .id % 1000 == 4) | .id';
    await expectSameAsJq(path, program, file);
    const fromStdin = await runCli(['json', path, '-'], Buffer.from(padded));
    const theirs = await jqOutput(program, file);
    expect(theirs.stdout.toString().split('\n')).toHaveLength(151);
    expect(fromStdin.stdout.toString()).toBe(theirs.stdout.toString());
    expect(fromStdin.status).toBe(0);
  }, 120_000);

  it('prints a root or member too large to parse whole as jq -c prints it, one entry at a time', async () => {
    const items = records(60_000).map((row) => ({ ...row, pad: 'y'.repeat(200) }));
    const file = await tempFile(
      JSON.stringify({ meta: { count: items.length }, items, note: 'end' }),
      'big.json',
    );
    expect((await stat(file)).size).toBeGreaterThan(16 * 1024 * 1024);
    await expectSameAsJq('$', '.', file);
    await expectSameAsJq('$.items', '.items', file);
    const jsonl = await tempFile(asJsonl(data.slice(0, 50)), 'rows.jsonl');
    await expectSameAsJq('$', '-s|.', jsonl);
  }, 120_000);

  it('prints the records before a bad JSONL line, then fails on it like jq', async () => {
    const file = await tempFile(
      `${asJsonl(data.slice(0, 3))}{"id": 3, "status": }\n${asJsonl(data.slice(4, 6))}`,
      'rows.jsonl',
    );
    const ours = await runCli(['json', '$[*].id', file]);
    const theirs = await jqOutput('.id', file);
    expect(ours.stdout.toString()).toBe('0\n1\n2\n');
    expect(ours.stdout.toString()).toBe(theirs.stdout.toString());
    expect(ours.status).toBe(2);
    expect(theirs.status).not.toBe(0);
    expect(ours.stderr).toBe(
      `spoolforge: ${file}: Invalid JSON at line 4, column 21: Expected a value, found '}' (E_INVALID_JSON)\n`,
    );
  });
});

describe('spoolforge json', () => {
  it('answers exit status 1 with no output when nothing matches', async () => {
    const file = await tempFile(JSON.stringify(data), 'rows.json');
    const result = await runCli(['json', '$[?(@.status == 999)]', file]);
    expect([result.status, result.stdout.toString(), result.stderr]).toEqual([1, '', '']);
  });

  it('treats empty or blank input as no value (exit 1), like jq', async () => {
    for (const content of ['', ' \n\r\n\t']) {
      const file = await tempFile(content, 'empty.json');
      for (const source of [file, '-']) {
        const result = await runCli(['json', '$[*]', source], Buffer.from(content));
        expect([result.status, result.stdout.toString(), result.stderr]).toEqual([1, '', '']);
      }
    }
  });

  it('names the line and column of invalid JSON on standard error, exit 2', async () => {
    const result = await runCli(['json', '$[*]', '-'], Buffer.from('[\n  {"a": 1},\n  {"a" 2}\n]'));
    expect(result.status).toBe(2);
    expect(result.stdout.toString()).toBe('');
    expect(result.stderr).toMatch(
      /^spoolforge: \(standard input\): Invalid JSON at line 3, column 8: .* \(E_INVALID_JSON\)\n$/,
    );
  });

  it('reads a .jsonl name as JSONL and --format overrides the sniffing', async () => {
    const content = '{"a":1}\n{"a":2}\n';
    const jsonl = await tempFile(content, 'rows.ndjson');
    expect((await runCli(['json', '$[*].a', jsonl])).stdout.toString()).toBe('1\n2\n');
    const piped = await runCli(['json', '--format=jsonl', '$[1]', '-'], Buffer.from(content));
    expect(piped.stdout.toString()).toBe('{"a":2}\n');
  });

  it('reads only the head of JSONL for the first records: --limit stops early, a bad tail is never reached', async () => {
    const many = records(400);
    const rows = Array.from({ length: 60 }, () => asJsonl(many)).join('');
    const path = await tempFile(`${rows}{"id": 1, "oops"}\n`, 'big.jsonl');
    const size = (await stat(path)).size;
    for (const [query, expected] of [
      [['$[0].id'], '0\n'],
      [['--limit', '2', '$[*].id'], '0\n1\n'],
      [['--limit', '1', '$[?(@.status == 503)].path'], '"/api/4"\n'],
    ] as const) {
      const server = await startServer(serveFiles(path));
      const result = await runCli(['json', ...query, urlOf(server, path)]);
      expect(result.stderr).toBe('');
      expect(result.stdout.toString()).toBe(expected);
      expect(server.bytesSent()).toBeLessThan(size / 4);
    }
    // The same file in full fails on its last line, as jq does.
    const all = await runCli(['json', '$[*].id', path]);
    expect(all.stderr).toMatch(/line 24001, column 17/);
  });

  it('prints a scalar root and --limit 0 prints nothing', async () => {
    const file = await tempFile('"héllo"\n', 'scalar.json');
    expect((await runCli(['json', '$', file])).stdout.toString()).toBe('"héllo"\n');
    const none = await runCli(['json', '--limit', '0', '$', file]);
    expect([none.status, none.stdout.toString()]).toEqual([1, '']);
  });

  it('refuses a bad --format, a bad --limit and a missing operand with exit 2', async () => {
    for (const args of [['--format', 'yaml', '$', '-'], ['--limit', '-1', '$', '-'], ['$[*]']]) {
      const result = await runCli(['json', ...args], Buffer.from('[]'));
      expect(result.status).toBe(2);
      expect(result.stderr).toMatch(/^spoolforge: (invalid format|invalid number|missing SOURCE)/);
    }
  });

  it('reads an http(s) SOURCE as it reads the file, JSONL by its name before the query string', async () => {
    const jsonl = await tempFile(asJsonl(data), 'rows.jsonl');
    const json = await tempFile(JSON.stringify(data, null, 1), 'rows.json');
    for (const path of [jsonl, json]) {
      const server = await startServer(serveFiles(path));
      const args = ['json', '--limit', '5', '$[?(@.status == 503)][id,path]'];
      const remote = await runCli([...args, urlOf(server, path, '?X-Amz-Signature=secret')]);
      const local = await runCli([...args, path]);
      expect(remote.stderr).toBe('');
      expect(remote.stdout.toString()).toBe(local.stdout.toString());
      expect(remote.stdout.toString().split('\n')).toHaveLength(6);
    }
    // One record would be sniffed as a JSON object, whose `$[*]` is its members' values.
    const one = await tempFile('{"a":1}\n', 'one.jsonl');
    const server = await startServer(serveFiles(one));
    const remote = await runCli(['json', '$[*]', urlOf(server, one, '?X-Amz-Signature=secret')]);
    expect(remote.stdout.toString()).toBe('{"a":1}\n');
    expect((await runCli(['json', '$[*]', '-'], Buffer.from('{"a":1}\n'))).stdout.toString()).toBe(
      '1\n',
    );
  });
});
