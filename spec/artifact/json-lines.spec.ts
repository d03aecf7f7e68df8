import { FileSpoolReader, SpooledJsonArtifact } from 'spoolforge';
import { JsonShape } from 'spoolforge/engine';
import { describe, expect, it } from 'vitest';
import { counting } from '../helpers/counting-reader.js';
import { tempFile } from '../helpers/temp-files.js';

const record = (id: number) =>
  JSON.stringify({ id, status: id % 9 === 0 ? 503 : 200, path: `/api/items/${id}`, pad: 'x' });

/** About 8 MiB of records, then a line that is not JSON. */
async function bigJsonl() {
  const count = 150_000;
  const lines = Array.from({ length: count }, (_, id) => record(id));
  const text = `${lines.join('\n')}\n{"id": 1, "oops"}\n`;
  const path = await tempFile(text, 'big.jsonl');
  const { reader, counter } = counting(new FileSpoolReader(path));
  const artifact = new SpooledJsonArtifact(reader, { format: 'jsonl' });
  return { artifact, counter, count, size: Buffer.byteLength(text) };
}

describe('JSONL read in place', () => {
  it('reads only the records a query needs: the first ones, or up to its limit', async () => {
    const { artifact, counter, size } = await bigJsonl();
    expect(await artifact.query('$[0].id')).toEqual([{ path: "$[0]['id']", value: 0 }]);
    expect(await artifact.query('$[*].id', { limit: 3 })).toHaveLength(3);
    const matches = await artifact.query('$[?(@.status >= 500)].id', { limit: 2 });
    expect(matches.map((match) => match.value)).toEqual([0, 9]);
    // The bad last line is never reached; the file was not scanned to count its records.
    expect(counter.bytes).toBeLessThan(size / 16);
    await artifact.close();
  });

  it('counts the records in one scan when asked, once', async () => {
    const { artifact, counter, count, size } = await bigJsonl();
    expect(await artifact.length()).toBe(count + 1);
    expect(counter.bytes).toBeGreaterThanOrEqual(size);
    expect(counter.bytes).toBeLessThan(size * 1.2);
    const before = counter.bytes;
    expect(await artifact.length()).toBe(count + 1);
    expect(counter.bytes).toBe(before);
    await artifact.close();
  });

  it('finds $[-1] and $[-3:] from the count, and a full pass counts for free', async () => {
    const lines = ['{"a":1}', '', '  \t', '{"a":2}', '\r', '{"a":3}'];
    const path = await tempFile(lines.join('\n'), 'blanks.jsonl');
    const { reader, counter } = counting(new FileSpoolReader(path));
    const artifact = new SpooledJsonArtifact(reader, { format: 'jsonl' });
    const all = await artifact.query('$[*].a');
    expect(all).toEqual([
      { path: "$[0]['a']", value: 1 },
      { path: "$[3]['a']", value: 2 },
      { path: "$[5]['a']", value: 3 },
    ]);
    const afterPass = counter.bytes;
    expect(await artifact.length()).toBe(3);
    expect(counter.bytes).toBe(afterPass);
    expect(await artifact.query('$[-1].a')).toEqual([{ path: "$[5]['a']", value: 3 }]);
    expect((await artifact.query('$[-3:]')).map((match) => match.path)).toEqual(['$[3]', '$[5]']);
    await artifact.close();
  });

  it('decodes each record as its own line: UTF-8 beside ASCII, an invalid byte as U+FFFD, CRLF', async () => {
    const lines = [
      Buffer.from('{"name":"plain"}\r\n'),
      Buffer.from('{"name":"café ✓ 😀"}\n'),
      Buffer.concat([
        Buffer.from('{"name":"bad '),
        Buffer.from([0xff, 0xe2, 0x82]),
        Buffer.from('"}\n'),
      ]),
      Buffer.from('{"name":"après"}'),
    ];
    const path = await tempFile(Buffer.concat(lines), 'utf8.jsonl');
    const artifact = SpooledJsonArtifact.fromFile(path, { format: 'jsonl' });
    const names = (await artifact.query('$[*].name')).map((match) => match.value);
    expect(names).toEqual(['plain', 'café ✓ 😀', 'bad \uFFFD\uFFFD', 'après']);
    const text = await artifact.cat();
    expect(names[2]).toBe(JSON.parse(text[2]?.text ?? '').name);
    await artifact.close();
  });

  it('counts lines and records alike whether or not a pass came first', async () => {
    for (const text of ['{"a":1}\n\n{"a":2}\n', '{"a":1}\n \n', '\n\n', '{"a":1}', '']) {
      const path = await tempFile(text, 'rows.jsonl');
      const counted = SpooledJsonArtifact.fromFile(path, { format: 'jsonl' });
      const passed = SpooledJsonArtifact.fromFile(path, { format: 'jsonl' });
      await passed.query('$[*]');
      const document = await counted.document();
      expect(await document.counts()).toEqual(await (await passed.document()).counts());
      expect((await document.counts()).entryCount).toBe((text.match(/\{/g) ?? []).length);
      expect((await document.counts()).indexLimit).toBe(await counted.lineCount());
      await Promise.all([counted.close(), passed.close()]);
    }
  });
  it('shapes UTF-8 keys, strings and escapes as a record-by-record parse does, whatever the key order', async () => {
    const lines = [
      `{"名前":"Jürgen Müller","note":"${'é'.repeat(70)}","n":1}`,
      '{"note":"\\u00e9 then ü","名前":null,"n":"two"}',
      '{"n":3,"名前":"田中 花子","note":"ascii"}',
      '{"n":4,"名前":"田中 花子","note":"ascii","extra":{"ключ":[true,"ß"]}}',
      '{"n":5,"名前":"田中 花子","note":"ascii"}',
    ];
    const bad = Buffer.concat([
      Buffer.from('{"n":6,"note":"bad '),
      Buffer.from([0xff]),
      Buffer.from('"}'),
    ]);
    const text = Buffer.concat([Buffer.from(`${lines.join('\n')}\n`), bad]);
    const path = await tempFile(text, 'shape.jsonl');
    const artifact = SpooledJsonArtifact.fromFile(path, { format: 'jsonl' });
    const expected = new JsonShape();
    for (const line of text.toString('utf8').split('\n')) expected.add('$[*]', JSON.parse(line));
    const { shape } = await artifact.shape();
    expect(shape.fields()).toEqual(expected.fields());
    const fields = Object.fromEntries(shape.fields().map((field) => [field.path, field]));
    expect(fields["$[*]['名前']"]?.examples).toEqual({ string: 'Jürgen Müller', null: null });
    expect(fields['$[*].note']?.examples).toEqual({ string: `${'é'.repeat(60)}…` });
    expect(fields["$[*].extra['ключ'][*]"]?.types).toEqual({ boolean: 1, string: 1 });
    expect(fields['$[*].n']?.types).toEqual({ number: 5, string: 1 });
    expect(fields['$[*].n']?.parentObjects).toBe(6);
    await artifact.close();
  });

  it('reports a bad line in shape() as a query does, its UTF-8 decoded', async () => {
    const path = await tempFile('{"a":"ü"}\n{"a":"Müller" "b"}\n', 'bad.jsonl');
    const artifact = SpooledJsonArtifact.fromFile(path, { format: 'jsonl' });
    const queried = await artifact.query('$[*]').catch((error: Error) => error);
    const shaped = await artifact.shape().catch((error: Error) => error);
    expect(queried).toMatchObject({ code: 'E_INVALID_JSON' });
    expect((shaped as Error).message).toBe((queried as Error).message);
    // Its column counts characters: 'ü' read as its two latin1 bytes would put it at 16.
    expect((shaped as Error).message).toContain('line 2, column 15');
    await artifact.close();
  });
});

describe('JSONL shape() of raw UTF-8 beside escapes beyond latin1', () => {
  it('keeps keys and examples as JSON.parse of the UTF-8 text reads them', async () => {
    // Raw 'é' and '€' next to '\u20ac' and a surrogate pair: the escapes make characters above
    // U+00FF in a string that also holds raw UTF-8 bytes.
    const text = '{"é\\u20ac":"€ \\u20ac \\ud83d\\ude00 ü","n":1}\n';
    const path = await tempFile(text, 'escapes.jsonl');
    const artifact = SpooledJsonArtifact.fromFile(path, { format: 'jsonl' });
    const { shape } = await artifact.shape();
    const fields = Object.fromEntries(shape.fields().map((field) => [field.path, field]));
    expect(Object.keys(fields)).toEqual(['$[*]', "$[*]['é€']", '$[*].n']);
    expect(fields["$[*]['é€']"]?.examples).toEqual({ string: '€ € 😀 ü' });
    await artifact.close();
  });
});
