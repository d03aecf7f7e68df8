import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type ArtifactKind,
  baseToolMethods,
  defaultArtifactKinds,
  defineTool,
  SpooledArtifact,
  spool,
  type ToolCallOutcome,
  type ToolMethodDescriptor,
  ToolSession,
} from 'spoolforge';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openStore } from '../store/store-helpers.js';

// A kind need not have a class of its own: `artifactClass` may be one another kind uses.
const logLevels: ToolMethodDescriptor<SpooledArtifact> = {
  name: 'artifact_log_levels',
  description: 'How many lines of each level a spooled log has.',
  args: {},
  run: async () => 'WARN 100, INFO 200',
};
const logKind: ArtifactKind = {
  name: 'log',
  mediaType: 'text/x-log',
  mediaTypes: ['text/x-log'],
  sniff: ({ text }) => text.startsWith('LOG '),
  artifactClass: SpooledArtifact,
  toolMethods: [...baseToolMethods, logLevels],
};
const kinds = defaultArtifactKinds.with(logKind);
const log = 'LOG INFO started\n'.repeat(300);
const plain = 'INFO started\n'.repeat(300);

const textOf = (outcome: ToolCallOutcome | undefined) =>
  outcome?.content.map((part) => (part.type === 'text' ? part.text : '')).join('') ?? '';

const tool = (name: string, output: string) =>
  defineTool({ name, description: name, inputSchema: z.object({}), handler: () => output });

const directories: string[] = [];
afterEach(async () => {
  await Promise.all(directories.splice(0).map((path) => rm(path, { recursive: true })));
});

describe('a kind whose class another kind uses too', () => {
  it('still gets its own tools forged for its outputs', async () => {
    await using session = new ToolSession({
      tools: [tool('fetch_log', log), tool('fetch_text', plain)],
      kinds,
    });
    const [logged, text] = await session.run(
      [
        { id: 'call_log', name: 'fetch_log', arguments: {} },
        { id: 'call_text', name: 'fetch_text', arguments: {} },
      ],
      session.dispatch(),
    );
    expect(textOf(logged)).toContain('artifact_grep, artifact_log_levels (callId');
    expect(textOf(text)).not.toContain('artifact_log_levels');
    const dispatch = session.dispatch();
    const levels = dispatch.tools.get('artifact_log_levels');
    const schema = z.toJSONSchema(levels?.inputSchema ?? z.never()) as unknown as {
      properties: { callId: { enum: string[] } };
    };
    expect(schema.properties.callId.enum).toEqual(['call_log']);
    const [answer] = await session.run(
      [{ id: 'q', name: 'artifact_log_levels', arguments: { callId: 'call_log' } }],
      dispatch,
    );
    expect(textOf(answer)).toBe('WARN 100, INFO 200');
  });

  it('keeps its tools when reopened from a store', async () => {
    const store = await openStore({ kinds });
    await using session = new ToolSession({ tools: [tool('fetch_log', log)], store });
    const [logged] = await session.run(
      [{ id: 'call_log', name: 'fetch_log', arguments: {} }],
      session.dispatch(),
    );
    expect((await store.info(logged?.ref ?? ''))?.kind).toBe('log');
    expect(textOf(logged)).toContain('artifact_log_levels (callId');
    expect(session.dispatch().tools.has('artifact_log_levels')).toBe(true);
  });
});

describe('a kind whose sniffer throws', () => {
  const failing: ArtifactKind = {
    ...logKind,
    name: 'failing',
    sniff: () => {
      throw new Error('sniffer failed');
    },
  };
  const failingKinds = defaultArtifactKinds.with(failing);

  it('fails spool() and leaves no temp file behind', async () => {
    const tempDirectory = await mkdtemp(join(tmpdir(), 'spoolforge-kind-spec-'));
    directories.push(tempDirectory);
    await expect(
      spool(log, { kinds: failingKinds, memoryThreshold: 0, tempDirectory }),
    ).rejects.toThrow('sniffer failed');
    const left = await readdir(tempDirectory, { recursive: true, withFileTypes: true });
    expect(left.filter((entry) => entry.isFile()).map((entry) => entry.name)).toEqual([]);
  });

  it('fails ArtifactStore.put and leaves no data file behind', async () => {
    const store = await openStore({ kinds: failingKinds });
    await expect(store.put(log)).rejects.toThrow('sniffer failed');
    const left = await readdir(store.directory, { recursive: true, withFileTypes: true });
    expect(left.filter((entry) => entry.isFile()).map((entry) => entry.name)).toEqual([]);
  });
});
