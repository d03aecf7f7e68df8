// `@modelcontextprotocol/server-everything` (the MCP reference server, from npm) as a child
// process behind a spoolforge proxy, and a client that declares what a rich client declares —
// sampling, elicitation (form and URL), roots, tasks — with real handlers that record what the
// upstream asked of it through the proxy.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  getDefaultEnvironment,
  StdioClientTransport,
} from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import {
  type CallToolResult,
  CreateMessageRequestSchema,
  type CreateMessageResult,
  ElicitationCompleteNotificationSchema,
  ElicitRequestSchema,
  type ElicitResult,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  type Request,
  ResourceUpdatedNotificationSchema,
  type Result,
  type Root,
} from '@modelcontextprotocol/sdk/types.js';
import { ArtifactStore } from 'spoolforge';
import { McpSpoolProxy, type McpSpoolProxyOptions } from 'spoolforge/mcp';
import { afterAll, beforeAll } from 'vitest';
import { repositoryRoot } from './repository-files.js';

/** The server's entry point; `node <it> stdio` serves stdio. */
export const serverEverythingPath = join(
  repositoryRoot,
  'node_modules/@modelcontextprotocol/server-everything/dist/index.js',
);

/** The server's documents, which it serves as static resources. */
export const serverEverythingDocs = join(dirname(serverEverythingPath), 'docs');

/** What the sampling handler answers (and records). */
export const sampledReply: CreateMessageResult = {
  role: 'assistant',
  content: { type: 'text', text: 'Paris is the capital of France.' },
  model: 'spec-model-1',
  stopReason: 'endTurn',
};

/** What the elicitation handler answers to a form: every field server-everything reads. */
export const elicitedForm = {
  name: 'Ada Lovelace',
  check: true,
  email: 'ada@example.com',
  integer: 7,
  interpretation: 'programming',
  favoriteColor: 'Blue',
};

/** The server, the proxy and the rich client between them, with what the client received. */
export interface EverythingSession {
  client: Client;
  proxy: McpSpoolProxy;
  store: ArtifactStore;
  /** Every message the proxy sent the upstream, in order (the real stdio wire). */
  sentUpstream: JSONRPCMessage[];
  /** The upstream's requests the client's handlers answered, in order. */
  requests: Request[];
  /** The log messages (`notifications/message`) the client received. */
  logs: unknown[];
  /** The URIs of the `notifications/resources/updated` the client received. */
  updated: string[];
  /** The ids of the URL elicitations the upstream said were completed. */
  completed: string[];
  /** The methods of the other notifications the client received (list_changed …). */
  notified: string[];
  /** The roots the client answers `roots/list` with (change them, then `sendRootsListChanged`). */
  roots: Root[];
  /** Calls a tool through the proxy. */
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

/**
 * A proxy of a fresh server-everything child (`env` added to its environment; `upstream`
 * replaces it), its store in a fresh directory, and a connected rich client.
 */
export async function everythingSession(
  options: Partial<McpSpoolProxyOptions> & { env?: Record<string, string> } = {},
): Promise<EverythingSession> {
  const directory = await mkdtemp(join(tmpdir(), 'spoolforge-everything-'));
  const store = await ArtifactStore.open(directory);
  const sentUpstream: JSONRPCMessage[] = [];
  const { env, ...proxyOptions } = options;
  const proxy = new McpSpoolProxy({
    upstream: () => {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [serverEverythingPath, 'stdio'],
        env: { ...getDefaultEnvironment(), ...env },
        stderr: 'pipe',
      });
      const send = transport.send.bind(transport);
      transport.send = (message) => {
        sentUpstream.push(message);
        return send(message);
      };
      return transport;
    },
    store,
    label: 'server-everything',
    ...proxyOptions,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await proxy.connect(serverSide);
  const session: EverythingSession = {
    client: richClient(),
    proxy,
    store,
    sentUpstream,
    requests: [],
    logs: [],
    updated: [],
    completed: [],
    notified: [],
    roots: [{ uri: 'file:///work/project', name: 'project' }],
    call: async (name, args = {}) =>
      (await session.client.callTool({ name, arguments: args })) as CallToolResult,
    async close() {
      await session.client.close();
      await proxy.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
  handle(session);
  await session.client.connect(clientSide);
  return session;
}

/**
 * One session for a spec file, started before its first test and closed after its last: the
 * returned function gives it.
 */
export function everythingSessionPerFile(): () => EverythingSession {
  let session: EverythingSession | undefined;
  beforeAll(async () => {
    session = await everythingSession();
  });
  afterAll(async () => {
    await session?.close();
  });
  return () => {
    if (!session) throw new Error('The server-everything session has not started');
    return session;
  };
}

function richClient(): Client {
  return new Client(
    { name: 'rich-spec-client', version: '1.0.0' },
    {
      capabilities: {
        sampling: {},
        elicitation: { form: {}, url: {} },
        roots: { listChanged: true },
        tasks: {
          list: {},
          cancel: {},
          requests: { sampling: { createMessage: {} }, elicitation: { create: {} } },
        },
      },
      // Holds the tasks the client runs when the upstream asks for one (the async tools).
      taskStore: new InMemoryTaskStore(),
    },
  );
}

function handle(session: EverythingSession): void {
  const { client } = session;
  client.setRequestHandler(CreateMessageRequestSchema, (request, extra) => {
    session.requests.push(request);
    return answer(request, extra, sampledReply);
  });
  client.setRequestHandler(ElicitRequestSchema, (request, extra) => {
    session.requests.push(request);
    const result: ElicitResult =
      request.params.mode === 'url'
        ? { action: 'accept' }
        : { action: 'accept', content: elicitedForm };
    return answer(request, extra, result);
  });
  client.setRequestHandler(ListRootsRequestSchema, (request) => {
    session.requests.push(request);
    return { roots: session.roots };
  });
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    session.logs.push(notification.params.data);
  });
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
    session.updated.push(notification.params.uri);
  });
  client.setNotificationHandler(ElicitationCompleteNotificationSchema, (notification) => {
    session.completed.push(notification.params.elicitationId);
  });
  client.fallbackNotificationHandler = async (notification) => {
    session.notified.push(notification.method);
  };
}

type TaskExtra = {
  taskStore?: {
    createTask(options: { ttl?: number | null }): Promise<{ taskId: string }>;
    storeTaskResult(taskId: string, status: 'completed', result: Result): Promise<void>;
  };
};

/**
 * `result`, or — when the upstream asked for a task (`params.task`) — a task the client
 * completes with it a moment later, the way a client that asks its user runs it.
 */
async function answer<T extends Result>(
  request: { params: { task?: { ttl?: number | undefined } | undefined } },
  extra: TaskExtra,
  result: T,
): Promise<T | { task: unknown }> {
  const taskStore = extra.taskStore;
  if (!request.params.task || !taskStore) return result;
  const task = await taskStore.createTask({ ttl: request.params.task.ttl ?? null });
  setTimeout(() => void taskStore.storeTaskResult(task.taskId, 'completed', result), 200);
  return { task };
}
