import {
  type ArtifactKind,
  ArtifactKinds,
  ArtifactStore,
  baseToolMethods,
  DispatchContext,
  defaultArtifactKinds,
  defineTool,
  SpooledArtifact,
  SpoolforgeError,
  spool,
  ToolCall,
  type ToolCallOutcome,
  type ToolMethodDescriptor,
  ToolSession,
} from 'spoolforge';
import { forgeArtifactTools } from 'spoolforge/engine';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { errorCode, openStore } from '../store/store-helpers.js';

/** A custom class: CSV with a header row. */
class CsvArtifact extends SpooledArtifact {
  override get kind(): string {
    return 'csv';
  }

  async columns(): Promise<string[]> {
    const [header] = await this.head(1);
    return header ? header.text.split(',') : [];
  }
}

const csvColumns: ToolMethodDescriptor<CsvArtifact> = {
  name: 'artifact_csv_columns',
  description: 'The column names of a spooled CSV output.',
  args: {},
  run: async (artifact) => (await artifact.columns()).join(', '),
};

/** The one way to add a kind: define it, then register it once. */
const csvKind: ArtifactKind<CsvArtifact> = {
  name: 'csv',
  mediaType: 'text/csv',
  mediaTypes: ['text/csv'],
  // Every line of the sample has the header's number of commas (at least one).
  sniff: ({ text }) => {
    const lines = text.split('\n').filter((line) => line !== '');
    const commas = (line: string) => line.split(',').length - 1;
    const first = lines[0];
    return (
      first !== undefined &&
      commas(first) > 0 &&
      lines.every((line) => commas(line) === commas(first))
    );
  },
  artifactClass: CsvArtifact,
  toolMethods: [...baseToolMethods, csvColumns],
};
const kinds = defaultArtifactKinds.with(csvKind);

const csv = `id,name,status\n${Array.from({ length: 400 }, (_, id) => `${id},item ${id},ok`).join('\n')}\n`;
const log = 'INFO started\n'.repeat(400);

const opened: SpooledArtifact[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((artifact) => artifact.close()));
});

async function spooled(source: string, options: Parameters<typeof spool>[1] = {}) {
  const artifact = await spool(source, options);
  opened.push(artifact);
  return artifact;
}

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

const textOf = (outcome: ToolCallOutcome | undefined) =>
  outcome?.content.map((part) => (part.type === 'text' ? part.text : '')).join('') ?? '';

describe('a custom kind registered once', () => {
  it('is sniffed or declared by spool()', async () => {
    expect(await spooled(csv, { kinds })).toBeInstanceOf(CsvArtifact);
    expect((await spooled(csv, { kinds })).mediaType).toBe('text/csv');
    expect(await spooled('a', { kinds, mediaType: 'text/csv; charset=utf-8' })).toBeInstanceOf(
      CsvArtifact,
    );
    expect(await spooled('a', { kinds, kind: 'csv' })).toBeInstanceOf(CsvArtifact);
    expect((await spooled(csv, { kinds, kind: 'text' })).constructor).toBe(SpooledArtifact);
    // Without it, CSV is text; the built-in kinds still come first for what they recognise.
    expect((await spooled(csv)).constructor).toBe(SpooledArtifact);
    expect((await spooled('{"a":1}\n{"a":2}\n', { kinds })).kind).toBe('jsonl');
    expect(await errorCode(spool(csv, { kind: 'csv' }))).toBe('E_INVALID_ARGUMENT');
  });

  it('is recorded by ArtifactStore.put and reopened as its class by get', async () => {
    const store = await openStore({ kinds });
    const record = await store.put(csv);
    expect(record).toMatchObject({ kind: 'csv', mediaType: 'text/csv' });
    const artifact = await store.get(record.id);
    opened.push(artifact);
    expect(artifact).toBeInstanceOf(CsvArtifact);
    expect(await (artifact as CsvArtifact).columns()).toEqual(['id', 'name', 'status']);
    expect(await store.put('x', { kind: 'csv' })).toMatchObject({ kind: 'csv' });
    // A store without the kind reads the same artifact as plain text.
    const plain = await (await ArtifactStore.open(store.directory)).get(record.id);
    opened.push(plain);
    expect(plain.constructor).toBe(SpooledArtifact);
    expect(await errorCode(store.put('x', { kind: 'tsv' }))).toBe('E_INVALID_ARGUMENT');
  });

  it('is spooled by a ToolSession, and its tool is forged for its outputs only', async () => {
    const exportOrders = defineTool({
      name: 'export_orders',
      description: 'Exports the orders as CSV.',
      inputSchema: z.object({}),
      handler: () => csv,
    });
    const fetchLog = defineTool({
      name: 'fetch_log',
      description: 'Fetches a log.',
      inputSchema: z.object({}),
      handler: () => log,
    });
    await using session = new ToolSession({ tools: [exportOrders, fetchLog], kinds });
    const [orders, logged] = await session.run(
      [
        { id: 'call_csv', name: 'export_orders', arguments: {} },
        { id: 'call_log', name: 'fetch_log', arguments: {} },
      ],
      session.dispatch(),
    );
    expect(orders?.call.results).toBeInstanceOf(CsvArtifact);
    expect(textOf(orders)).toContain('was spooled, not inlined: csv, ');
    expect(textOf(orders)).toContain('artifact_grep, artifact_csv_columns (callId');
    expect(logged?.call.results?.constructor).toBe(SpooledArtifact);
    expect(textOf(logged)).not.toContain('artifact_csv_columns');

    const dispatch = session.dispatch();
    const enumOf = (name: string) =>
      (
        z.toJSONSchema(dispatch.tools.get(name)?.inputSchema ?? z.never()) as unknown as {
          properties: { callId: { enum: string[] } };
        }
      ).properties.callId.enum;
    expect(enumOf('artifact_csv_columns')).toEqual(['call_csv']);
    expect(enumOf('artifact_read')).toEqual(['call_csv', 'call_log']);
    expect(
      dispatch.tools
        .list()
        .map((tool) => tool.name)
        .slice(-3),
    ).toEqual(['artifact_grep', 'artifact_csv_columns', 'artifact_list']);
    const [columns, refused] = await session.run(
      [
        { id: 'q1', name: 'artifact_csv_columns', arguments: { callId: 'call_csv' } },
        { id: 'q2', name: 'artifact_csv_columns', arguments: { callId: 'call_log' } },
      ],
      dispatch,
    );
    expect(textOf(columns)).toBe('id, name, status');
    expect(refused?.isError).toBe(true);
    expect(
      textOf(
        await session
          .run([{ id: 'q3', name: 'artifact_list', arguments: {} }], dispatch)
          .then(([outcome]) => outcome),
      ),
    ).toMatch(/^call_csv tool=export_orders kind=csv /);
  });

  it('reaches a session through its store when the session names no kinds', async () => {
    const store = await openStore({ kinds });
    const exportOrders = defineTool({
      name: 'export_orders',
      description: '',
      inputSchema: z.object({}),
      kind: 'csv',
      handler: () => `${csv}`,
    });
    await using session = new ToolSession({ tools: [exportOrders], store });
    expect(session.kinds).toBe(kinds);
    const [outcome] = await session.run(
      [{ id: 'c', name: 'export_orders', arguments: {} }],
      session.dispatch(),
    );
    expect(outcome?.call.results).toBeInstanceOf(CsvArtifact);
    expect(outcome?.ref).toBeDefined();
    expect((await store.info(outcome?.ref ?? ''))?.kind).toBe('csv');
  });
});

describe('ArtifactKinds', () => {
  it('lists the built-in kinds in the order they are sniffed; with() puts new kinds first', () => {
    expect(defaultArtifactKinds.list().map((kind) => kind.name)).toEqual([
      'binary',
      'jsonl',
      'json',
      'markdown',
      'text',
    ]);
    expect(kinds.list().map((kind) => kind.name)).toEqual([
      'csv',
      'binary',
      'jsonl',
      'json',
      'markdown',
      'text',
    ]);
    const replaced = kinds.with({ ...csvKind, mediaType: 'text/x-csv' } as ArtifactKind);
    expect(replaced.list().map((kind) => kind.name)).toEqual(kinds.list().map((kind) => kind.name));
    expect(replaced.get('csv')?.mediaType).toBe('text/x-csv');
  });

  it('refuses two kinds of one name, and one tool name with two descriptors', () => {
    const duplicate = thrown(
      () => new ArtifactKinds([csvKind as ArtifactKind, csvKind as ArtifactKind]),
    );
    expect(SpoolforgeError.isInstance(duplicate) && duplicate.code).toBe('E_INVALID_ARGUMENT');
    const impostor = {
      ...csvColumns,
      name: 'artifact_read',
    } as ToolMethodDescriptor<SpooledArtifact>;
    const clash = thrown(() =>
      defaultArtifactKinds.with({ ...csvKind, toolMethods: [impostor] } as ArtifactKind),
    );
    expect(SpoolforgeError.isInstance(clash) && clash.code).toBe('E_INVALID_ARGUMENT');
    expect((clash as Error).message).toContain("'artifact_read'");
  });

  it('forges nothing for a turn without spooled outputs', () => {
    const call = new ToolCall({ id: 'c', name: 'echo', arguments: {} });
    call.results = 'inline';
    const context = new DispatchContext({ turnToolCalls: [call] });
    expect(forgeArtifactTools(kinds, context).list()).toEqual([]);
  });
});
