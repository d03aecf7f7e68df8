// The JSON tool's derived outputs: set / insert / delete at a path and extract, run as a model
// runs them (forged tools in a ToolSession), on a 300 KB Confluence page. Each new document is
// checked against one computed independently (JSON.parse, modify, JSON.stringify) byte for
// byte where the formatting makes that exact, and otherwise parsed-equal with every byte
// outside the edited value unchanged.
import { defineTool, type SpooledArtifact, ToolSession } from 'spoolforge';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { adfRow, confluencePage, minifiedPage } from '../helpers/confluence-page.js';

const sessions: ToolSession[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((session) => session.close()));
});

type Page = ReturnType<typeof confluencePage>;

/** A session whose `get_page` call (`call_page`) returned `text`, spooled. */
async function pageSession(text: string, kind?: string) {
  const getPage = defineTool({
    name: 'get_page',
    description: 'Fetches a page.',
    inputSchema: z.object({}),
    ...(kind ? { kind } : {}),
    handler: () => text,
  });
  const session = new ToolSession({ tools: [getPage] });
  sessions.push(session);
  await session.run([{ id: 'call_page', name: 'get_page', arguments: {} }], session.dispatch());
  return session;
}

let nextId = 0;

/** One `artifact_json` call as a model makes it: the text it reads, and the new output's bytes. */
async function json(session: ToolSession, args: Record<string, unknown>) {
  const dispatch = session.dispatch();
  const [outcome] = await session.run(
    [
      {
        id: `call_${++nextId}`,
        name: 'artifact_json',
        arguments: { callId: 'call_page', ...args },
      },
    ],
    dispatch,
  );
  if (!outcome) throw new Error('no outcome');
  const text = outcome.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
  const results = outcome.call.results;
  if (outcome.isError || typeof results === 'string' || results === undefined)
    return { text, isError: outcome.isError, id: outcome.call.id };
  const artifact = results as SpooledArtifact;
  const bytes = Buffer.from(await artifact.reader.read(0, await artifact.byteLength()));
  return { text, isError: false, id: outcome.call.id, bytes, artifact };
}

/**
 * `derived` is `original` with one span replaced: every byte before and after it unchanged,
 * and the span at most `changed` bytes of the original (0: a pure insertion).
 */
function expectOneSplice(original: Buffer, derived: Buffer, changed: number) {
  let prefix = 0;
  const shorter = Math.min(original.length, derived.length);
  while (prefix < shorter && original[prefix] === derived[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < shorter - prefix &&
    original[original.length - 1 - suffix] === derived[derived.length - 1 - suffix]
  )
    suffix++;
  expect(original.length - prefix - suffix).toBeLessThanOrEqual(changed);
}

const page = confluencePage();
const table = (value: Page) =>
  value.body.atlas_doc_format.value.content[2] as { content: unknown[] };
const tablePath = '$.body.atlas_doc_format.value.content[?(@.type == "table")].content';
const newRow = adfRow(620, 'Priya Nair', 'green');

/** The page modified by `change`, as the API would send it (minified). */
function expected(change: (value: Page) => void): string {
  const value = structuredClone(page);
  change(value);
  return JSON.stringify(value);
}

describe('artifact_json derives a new output from a 300 KB page (minified, one line)', () => {
  const original = minifiedPage();

  it('is the 300 KB page the API sends', () => {
    expect(Buffer.byteLength(original)).toBeGreaterThan(290_000);
    expect(original).not.toContain('\n');
  });

  it('insert: a row appended to the table a filter finds, byte-identical to the page with it', async () => {
    const session = await pageSession(original);
    const result = await json(session, {
      op: 'insert',
      path: tablePath,
      value: JSON.stringify(newRow),
      name: 'page-with-row',
    });
    expect(result.isError).toBe(false);
    expect(result.bytes?.toString()).toBe(expected((value) => table(value).content.push(newRow)));
    expect(result.text).toMatch(
      /^call_page with insert at \$\.body\.atlas_doc_format\.value\.content\[2\]\.content, as a new output:\nOutput of artifact_json "page-with-row" \(call_\d+\) was spooled, not inlined: json, /,
    );
    expect(result.artifact?.name).toBe('page-with-row');
  });

  it('insert at start: before row 1; set; set of a missing key; delete; insert into an object', async () => {
    const session = await pageSession(original);
    const cases: [Record<string, unknown>, (value: Page) => void][] = [
      [
        { op: 'insert', path: tablePath, start: 1, value: JSON.stringify(newRow) },
        (value) => table(value).content.splice(1, 0, newRow),
      ],
      [
        { op: 'insert', path: tablePath, start: 0, value: JSON.stringify(newRow) },
        (value) => table(value).content.unshift(newRow),
      ],
      [{ op: 'set', path: '$.version.number', value: '8' }, (value) => (value.version.number = 8)],
      [
        { op: 'set', path: "$['title']", value: '"Service catalogue — Q4 \\"final\\""' },
        (value) => (value.title = 'Service catalogue — Q4 "final"'),
      ],
      [
        { op: 'set', path: '$.version.message', value: '"one more row"' },
        (value) => (value.version.message = 'one more row'),
      ],
      [
        { op: 'set', path: '$.version.ncsStepVersion', value: '"1"' },
        (value) => Object.assign(value.version, { ncsStepVersion: '1' }),
      ],
      [
        { op: 'delete', path: '$._links.tinyui' },
        (value) => delete (value._links as Partial<Page['_links']>).tinyui,
      ],
      [
        { op: 'delete', path: '$._links.webui' },
        (value) => delete (value._links as Partial<Page['_links']>).webui,
      ],
      [{ op: 'delete', path: '$.labels[-1]' }, (value) => value.labels.pop()],
      [{ op: 'delete', path: '$.labels[0]' }, (value) => value.labels.shift()],
      [{ op: 'insert', path: '$.labels', value: '"eu"' }, (value) => value.labels.push('eu')],
      [
        { op: 'insert', path: '$.version', value: '{"reviewed":true,"by":"sre"}' },
        (value) => Object.assign(value.version, { reviewed: true, by: 'sre' }),
      ],
      [
        { op: 'set', path: '$.labels[?(@ == "q4")]', value: '"q1"' },
        (value) => (value.labels[2] = 'q1'),
      ],
      [
        { op: 'set', path: '$.body.storage.value', value: '"<p>gone</p>"' },
        (value) => (value.body.storage.value = '<p>gone</p>'),
      ],
    ];
    for (const [args, change] of cases) {
      const result = await json(session, args);
      expect(result.text, JSON.stringify(args)).not.toMatch(/^Error/);
      expect(result.bytes?.toString(), JSON.stringify(args)).toBe(expected(change));
    }
  });

  it('set at $ replaces the whole document; delete of the one member leaves {}', async () => {
    const session = await pageSession(original);
    const root = await json(session, { op: 'set', path: '$', value: ' {"id":"1"}\n' });
    expect(root.bytes?.toString()).toBe('{"id":"1"}');
    const [again] = await session.run(
      [
        {
          id: 'only',
          name: 'artifact_json',
          arguments: { callId: root.id, op: 'delete', path: '$.id' },
        },
      ],
      session.dispatch(),
    );
    const emptied = again?.call.results as SpooledArtifact;
    expect(await emptied.asString()).toBe('{}');
  });

  it('extract: the matches of a path as a JSON array, and of a condition', async () => {
    const session = await pageSession(original);
    const cells = `${tablePath}[*].content[1].content[0].content[0].text`;
    const owners = await json(session, { op: 'extract', path: cells });
    const want = table(page).content.map(
      (row) => (row as ReturnType<typeof adfRow>).content[1]?.content[0]?.content[0]?.text,
    );
    expect(JSON.parse(owners.bytes?.toString() ?? '')).toEqual(want);
    expect(owners.bytes?.toString()).toBe(`${JSON.stringify(want, null, 2)}\n`);
    const none = await json(session, { op: 'extract', path: '$.labels[?(@ == "none")]' });
    expect(none.bytes?.toString()).toBe('[]\n');
  });

  it('the new output is registered like a spooled result: queried, listed by name, edited again', async () => {
    const session = await pageSession(original);
    const first = await json(session, {
      op: 'set',
      path: '$.version.number',
      value: '8',
      name: 'v8',
    });
    const dispatch = session.dispatch();
    const offered = dispatch.tools.get('artifact_json')?.inputSchema;
    expect(offered?.safeParse({ callId: first.id, op: 'type' }).success).toBe(true);
    const [read, list] = await session.run(
      [
        {
          id: 'q1',
          name: 'artifact_json',
          arguments: { callId: first.id, op: 'get', path: '$.version.number' },
        },
        { id: 'q2', name: 'artifact_list', arguments: {} },
      ],
      dispatch,
    );
    expect(read?.content[0]).toMatchObject({
      text: expect.stringContaining("$['version']['number'] = 8"),
    });
    expect(list?.content[0]).toMatchObject({
      text: expect.stringMatching(
        new RegExp(`^${first.id} tool=artifact_json name="v8" kind=json`, 'm'),
      ),
    });
    // The query calls themselves are text, never offered as outputs.
    const ids = session.dispatch().tools.get('artifact_read')?.inputSchema;
    expect(ids?.safeParse({ callId: 'q1' }).success).toBe(false);
    // An edit of the derived output derives from it in turn.
    const [again] = await session.run(
      [
        {
          id: 'e2',
          name: 'artifact_json',
          arguments: { callId: first.id, op: 'set', path: '$.version.number', value: '9' },
        },
      ],
      session.dispatch(),
    );
    const artifact = again?.call.results as SpooledArtifact;
    expect(await artifact.asString()).toBe(expected((value) => (value.version.number = 9)));
    expect(again?.content[0]).toMatchObject({
      text: expect.stringMatching(new RegExp(`^${first.id} with set`)),
    });
  });
});

describe("artifact_json edits keep a pretty document's formatting", () => {
  const pretty = JSON.stringify(page, null, 2);
  const variants = {
    'two spaces, LF': pretty,
    CRLF: pretty.replaceAll('\n', '\r\n'),
    tabs: JSON.stringify(page, null, '\t'),
  };
  const layout = (text: string) => (value: Page) => {
    const indent = text.includes('\t') ? '\t' : 2;
    const out = JSON.stringify(value, null, indent);
    return text.includes('\r\n') ? out.replaceAll('\n', '\r\n') : out;
  };

  it.each(Object.entries(variants))(
    '%s: set, delete and scalar inserts are byte-identical to the document re-serialised',
    async (_, text) => {
      const session = await pageSession(text);
      const write = layout(text);
      const cases: [Record<string, unknown>, (value: Page) => void][] = [
        [
          { op: 'set', path: '$.version.number', value: '8' },
          (value) => (value.version.number = 8),
        ],
        [{ op: 'insert', path: '$.labels', value: '"eu"' }, (value) => value.labels.push('eu')],
        [
          { op: 'insert', path: '$.labels', start: 1, value: '"eu"' },
          (value) => value.labels.splice(1, 0, 'eu'),
        ],
        [
          { op: 'insert', path: '$.version', value: '{"reviewed":true}' },
          (value) => Object.assign(value.version, { reviewed: true }),
        ],
        [
          { op: 'set', path: '$.version.ncsStepVersion', value: '"1"' },
          (value) => Object.assign(value.version, { ncsStepVersion: '1' }),
        ],
        [
          { op: 'delete', path: '$._links.editui' },
          (value) => delete (value._links as Partial<Page['_links']>).editui,
        ],
        [
          { op: 'delete', path: '$._links.tinyui' },
          (value) => delete (value._links as Partial<Page['_links']>).tinyui,
        ],
        [{ op: 'delete', path: '$.labels[0]' }, (value) => value.labels.shift()],
      ];
      for (const [args, change] of cases) {
        const result = await json(session, args);
        const value = structuredClone(page);
        change(value);
        expect(result.bytes?.toString(), JSON.stringify(args)).toBe(write(value));
      }
    },
  );

  it.each(Object.entries(variants))(
    '%s: a row inserted into the table is the only change',
    async (_, text) => {
      const session = await pageSession(text);
      const original = Buffer.from(text);
      const result = await json(session, {
        op: 'insert',
        path: tablePath,
        start: 3,
        value: JSON.stringify(newRow),
      });
      const derived = result.bytes as Buffer;
      const value = structuredClone(page);
      table(value).content.splice(3, 0, newRow);
      expect(JSON.parse(derived.toString())).toEqual(value);
      expectOneSplice(original, derived, 0);
      // The row and the separator copied from the rows around it: `,` and the line break + indent.
      const added = derived.length - original.length;
      const separator = text.includes('\r\n') ? ',\r\n' : ',\n';
      expect(added).toBe(
        Buffer.byteLength(JSON.stringify(newRow)) +
          Buffer.byteLength(separator) +
          (text.includes('\t') ? 7 : 14),
      );
      if (text.includes('\r\n')) expect(derived.toString()).not.toMatch(/[^\r]\n/);
    },
  );

  it('replacing the HTML body string changes only its bytes', async () => {
    const session = await pageSession(pretty);
    const html = page.body.storage.value.replace(
      '</tbody>',
      '<tr><td><p>SVC-620</p></td></tr>\n</tbody>',
    );
    const result = await json(session, {
      op: 'set',
      path: '$.body.storage.value',
      value: JSON.stringify(html),
    });
    expectOneSplice(
      Buffer.from(pretty),
      result.bytes as Buffer,
      Buffer.byteLength(JSON.stringify(page.body.storage.value)),
    );
    expect(JSON.parse(result.bytes?.toString() ?? '').body.storage.value).toBe(html);
  });
});

describe('artifact_json derived outputs: refusals the model reads', () => {
  it.each([
    [
      { op: 'set', path: '$.version.nope.deeper', value: '1' },
      /Path not found: \$\.version has no key "nope"/,
    ],
    [
      { op: 'set', path: '$.labels[7]', value: '"x"' },
      /Path not found: .*the array has 3 elements; insert adds one/,
    ],
    [{ op: 'delete', path: '$.version.nope' }, /Path not found: \$\.version\.nope does not exist/],
    [
      { op: 'insert', path: '$.title', value: '"x"' },
      /insert puts a value into an array or an object, and \$\.title is a string; set replaces it/,
    ],
    [
      { op: 'insert', path: '$.labels', start: 9, value: '"x"' },
      /start 9 is past the end of \$\.labels \(3 elements\)/,
    ],
    [
      { op: 'insert', path: '$.version', value: '{"number":9}' },
      /\$\.version already has "number"; set replaces a member/,
    ],
    [{ op: 'insert', path: '$.version', value: '[1]' }, /takes an object of the members to add/],
    [
      { op: 'set', path: '$..type', value: '"x"' },
      /\$\.\.type matches more than one value \(\$\['body'\]/,
    ],
    [
      { op: 'set', path: '$.labels[?(@ == "none")]', value: '"x"' },
      /Path not found: .* matches nothing/,
    ],
    [{ op: 'delete', path: '$' }, /delete cannot remove \$ itself/],
    [
      { op: 'set', path: '$.title', value: 'plain words' },
      /value is not JSON .*a string needs its quotes/,
    ],
    [{ op: 'set', path: '$.title' }, /op "set" needs a value/],
    [{ op: 'delete', path: '$.title', value: '1' }, /op "delete" takes path, name, not value/],
    [{ op: 'get', path: '$.title', name: 'x' }, /op "get" takes path, startIndex, not name/],
  ])('%j', async (args, message) => {
    const session = await pageSession(minifiedPage(20));
    const result = await json(session, args);
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/^Error \(E_INVALID_TOOL_ARGS\): /);
    expect(result.text).toMatch(message);
    // Nothing was registered: the next dispatch offers only the page.
    const schema = session.dispatch().tools.get('artifact_read')?.inputSchema;
    expect(schema?.safeParse({ callId: result.id }).success).toBe(false);
  });

  it('JSONL is not edited in place, but extract makes an array of its records', async () => {
    const lines = Array.from({ length: 300 }, (_, id) =>
      JSON.stringify({ id, ok: id % 2 === 0 }),
    ).join('\n');
    const session = await pageSession(lines, 'jsonl');
    const edit = await json(session, { op: 'set', path: '$[0].ok', value: 'true' });
    expect(edit.text).toMatch(/set edits a JSON document, and call_page is JSONL; op "extract"/);
    const odd = await json(session, { op: 'extract', path: '@.ok == false' });
    expect(JSON.parse(odd.bytes?.toString() ?? '')).toEqual(
      lines
        .split('\n')
        .map((line) => JSON.parse(line))
        .filter((record) => !record.ok),
    );
  });

  it('an invalid document is E_INVALID_JSON, and no output is made', async () => {
    const session = await pageSession(`${minifiedPage(20).slice(0, -1)},"x"`, 'json');
    const result = await json(session, { op: 'set', path: '$.title', value: '"x"' });
    expect(result.text).toMatch(/^Error \(E_INVALID_JSON\): Invalid JSON at line 1/);
  });
});

describe('extract in flat memory', () => {
  it('matches past one batch (1 MiB): the scan goes on after each batch, byte-identical to JSON.stringify', async () => {
    const rows = Array.from({ length: 30_000 }, (_, id) => ({
      id,
      status: id % 3 ? 200 : 500,
      path: `/api/v1/items/${id}/${'x'.repeat(60)}`,
    }));
    const session = await pageSession(JSON.stringify(rows));
    const result = await json(session, { op: 'extract', path: '@.status == 500' });
    const want = rows.filter((row) => row.status === 500);
    expect(result.bytes?.length).toBeGreaterThan(1024 * 1024);
    expect(result.bytes?.toString()).toBe(`${JSON.stringify(want, null, 2)}\n`);
  });
});

describe('a document over maxParseBytes (16 MiB), minified', () => {
  // Both entries are over it: `items` is queried element by element, `blob` never parsed.
  const items = Array.from({ length: 400_000 }, (_, id) => ({
    id,
    name: `item ${id}`,
    tags: ['a', 'b'],
  }));
  const blob = 'x'.repeat(17 * 1024 * 1024);
  const text = JSON.stringify({ meta: { v: 1 }, items, blob });

  it('edits at a path stream the document: no value on the way is parsed, however large', async () => {
    const session = await pageSession(text);
    const original = Buffer.from(text);
    expect(original.length).toBeGreaterThan(34 * 1024 * 1024);
    const set = await json(session, { op: 'set', path: '$.items[140000].name', value: '"edited"' });
    expectOneSplice(original, set.bytes as Buffer, Buffer.byteLength('"item 140000"'));
    expect(set.bytes?.length).toBe(original.length - Buffer.byteLength('"item 140000"') + 8);
    const blobSet = await json(session, { op: 'set', path: '$.blob', value: '"short"' });
    expect(blobSet.bytes?.toString()).toBe(
      JSON.stringify({ meta: { v: 1 }, items, blob: 'short' }),
    );
    // A filter is evaluated entry by entry inside the large array, as queries are.
    const filtered = await json(session, { op: 'delete', path: '$.items[?(@.id == 7)]' });
    expect(filtered.bytes?.toString()).toBe(
      JSON.stringify({ meta: { v: 1 }, items: items.filter((item) => item.id !== 7), blob }),
    );
  });

  it('a value an operation must hold whole past maxParseBytes is E_ARTIFACT_TOO_LARGE', async () => {
    const session = await pageSession(text);
    const extract = await json(session, { op: 'extract', path: '$.blob' });
    expect(extract.text).toMatch(
      /^Error \(E_ARTIFACT_TOO_LARGE\): \$\['blob'\] \(string, 17\.0 MiB\) is larger than maxParseBytes/,
    );
  });
});
