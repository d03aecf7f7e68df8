// artifact_json's new outputs through the MCP proxy: an SDK client edits an output the proxy
// spooled, and the new document goes into the proxy's store, in the client's scope, queried
// and listed like any spooled result.
import { afterEach, describe, expect, it } from 'vitest';
import { handleId, type ProxiedClient, proxiedClient, textOf } from './proxy-helpers.js';

const open: ProxiedClient[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((each) => each.close()));
});

async function bigJson() {
  const proxied = await proxiedClient();
  open.push(proxied);
  const id = handleId(await proxied.call('big_json', { rows: 3_000 }));
  const stored = await proxied.store.get(id);
  const original = await stored.asString();
  await stored.close();
  return { ...proxied, id, original };
}

describe('McpSpoolProxy: artifact_json derived outputs', () => {
  it('set makes a new stored output, byte-identical to the document with the value set', async () => {
    const { call, store, id, original } = await bigJson();
    const result = await call('artifact_json', {
      callId: id,
      op: 'set',
      path: '$.rows[2999].name',
      value: '"last row"',
      name: 'renamed',
    });
    expect(result.isError).toBeFalsy();
    const text = textOf(result);
    expect(text).toMatch(
      new RegExp(`^${id} with set at \\$\\.rows\\[2999\\]\\.name, as a new output:\\n`),
    );
    expect(text).toMatch(
      /Output of artifact_json "renamed" \(\S+\) was spooled, not inlined: json, /,
    );
    const derivedId = handleId(result);
    expect(derivedId).not.toBe(id);
    const record = await store.info(derivedId);
    expect(record).toMatchObject({
      name: 'renamed',
      kind: 'json',
      metadata: { tool: 'artifact_json' },
    });
    const derived = await store.get(derivedId);
    const value = JSON.parse(original);
    value.rows[2999].name = 'last row';
    // The proxy stored the structured content indented by 2: the edit keeps that layout.
    expect(original).toBe(JSON.stringify(JSON.parse(original), null, 2));
    expect(await derived.asString()).toBe(JSON.stringify(value, null, 2));
    // Every byte before the value is the original's.
    const at = original.lastIndexOf('"name": "row 2999');
    expect(at).toBeGreaterThan(0);
    expect((await derived.asString()).slice(0, at)).toBe(original.slice(0, at));
    await derived.close();

    const get = await call('artifact_json', { callId: derivedId, op: 'get', path: '$.rows[2999]' });
    expect(textOf(get)).toContain('"name":"last row"');
    const list = await call('artifact_list');
    expect(textOf(list)).toMatch(
      new RegExp(`^${derivedId} tool=artifact_json name="renamed" kind=json`, 'm'),
    );
  });

  it('extract: the matches as a new JSON array; a bad path is an error result and stores nothing', async () => {
    const { call, store, id } = await bigJson();
    const result = await call('artifact_json', {
      callId: id,
      op: 'extract',
      path: '$.rows[?(@.id % 1000 == 0)].id',
    });
    const derived = await store.get(handleId(result));
    expect(JSON.parse(await derived.asString())).toEqual([0, 1000, 2000]);
    await derived.close();
    const before = (await store.list()).length;
    const bad = await call('artifact_json', {
      callId: id,
      op: 'insert',
      path: '$.rows[0].name',
      value: '"x"',
    });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(
      /^Error \(E_INVALID_TOOL_ARGS\): insert puts a value into an array or an object/,
    );
    expect((await store.list()).length).toBe(before);
  });
});
