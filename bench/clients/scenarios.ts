// The conversations the harness runs: each client through the proxy (read 30 MB, grep the
// handle, answer), and the checks of what each client does on its own with a big result.
import { join } from 'node:path';
import { cliPath } from '../mcp/mcp-clients.js';
import type { ServerCommand } from './client-commands.js';
import type { InstalledClients } from './install-clients.js';
import { referenceRoundTrip } from './reference-round-trip.js';
import type { Scenario, ScriptStep } from './run-scenario.js';

/**
 * The id of the handle in `text` (`Output of T (ID) was spooled, not inlined: KIND, …`): the
 * text output's when a result was stored as both structured content and text.
 */
export function handleIdIn(text: string): string | undefined {
  const handles = [...text.matchAll(/\(([^)\s]+)\) was spooled, not inlined: (\w+)/g)];
  return (handles.find((handle) => handle[2] === 'text') ?? handles[0])?.[1];
}

/**
 * The logs the scenarios read, by name: about this many bytes each. server-filesystem sends a
 * file twice in one message (as structured content and as text), so the message is a little
 * over twice the file (2.02x): 13.1, 15.1, 16.2 and 24.2 MiB for `m6`, `m7`, `m8` and `m12`.
 */
export const logSizes = {
  k60: 60_000,
  mid: 1_000_000,
  m6: 6.5 * 1024 * 1024,
  m7: 7.5 * 1024 * 1024,
  m8: 8 * 1024 * 1024,
  m12: 12 * 1024 * 1024,
  big: 30_000_000,
} as const;

/** A log's name. */
export type LogName = keyof typeof logSizes;

/** Reads `file` with server-filesystem's `read_text_file`. */
const read = (file: string): ScriptStep => ({
  tool: 'read_text_file',
  args: () => ({ path: file }),
});

/** Greps the handle of the result before for the needles (ends the script without a handle). */
const grepHandle: ScriptStep = {
  tool: 'artifact_grep',
  args: (previous) => {
    const callId = previous && handleIdIn(previous.text);
    return callId === undefined ? undefined : { callId, pattern: 'NEEDLE-', fixed: true };
  },
};

/** Answers `text` through the text server's `reply_text`. */
const replyText = (text: string): ScriptStep => ({ tool: 'reply_text', args: () => ({ text }) });

/**
 * Every scenario, given the installed clients, the directory of the files to read and the
 * proxy's store.
 */
export function scenariosFor(options: {
  clients: InstalledClients;
  files: string;
  store: string;
}): Scenario[] {
  const node = process.execPath;
  const filesystem: ServerCommand = {
    command: node,
    args: [
      join(
        options.clients.prefix,
        'node_modules',
        options.clients.filesystem.name,
        'dist',
        'index.js',
      ),
      options.files,
    ],
  };
  const proxy = (upstream: ServerCommand, ...flags: string[]): ServerCommand => ({
    command: node,
    args: [
      cliPath,
      'mcp',
      '--store',
      options.store,
      ...flags,
      '--',
      upstream.command,
      ...upstream.args,
    ],
  });
  /** A server under children/, run with tsx. */
  const child = (file: string, ...args: string[]): ServerCommand => ({
    command: node,
    args: [
      '--import',
      import.meta.resolve('tsx'),
      join(import.meta.dirname, 'children', file),
      ...args,
    ],
  });
  const textServer = child('text-server.ts');
  const log = (name: LogName) => join(options.files, `${name}.log`);
  const big = log('big');
  const mid = log('mid');
  const proxied = (client: Scenario['client']): Scenario => ({
    id: `${client}-proxy`,
    client,
    label: `${client} via spoolforge mcp, 30 MB`,
    server: proxy(filesystem),
    steps: [read(big), grepHandle],
    timeoutSeconds: 300,
  });
  const direct = (client: Scenario['client'], size: LogName): Scenario => ({
    id: `${client}-direct-${size}`,
    client,
    label: `${client} direct, ${logSizes[size].toLocaleString('en-US')} bytes`,
    server: filesystem,
    steps: [read(log(size))],
    timeoutSeconds: 180,
  });
  const served = (client: Scenario['client']): Scenario => ({
    id: `${client}-serve`,
    client,
    label: `${client} with spoolforge mcp serve, grep 30 MB`,
    server: { command: node, args: [cliPath, 'mcp', 'serve', '--root', options.files] },
    steps: [{ tool: 'file_grep', args: () => ({ path: big, pattern: 'NEEDLE-', fixed: true }) }],
    timeoutSeconds: 180,
  });
  return [
    ...(['claude', 'codex', 'gemini'] as const).flatMap((client) => [
      proxied(client),
      served(client),
    ]),
    {
      id: 'codex-links',
      client: 'codex',
      label: 'codex via spoolforge mcp --resource-links always',
      server: proxy(filesystem, '--resource-links', 'always'),
      steps: [read(big), grepHandle],
      timeoutSeconds: 300,
    },
    ...(['required', 'approval'] as const).map(
      (omitted): Scenario => ({
        id: `codex-without-${omitted}`,
        client: 'codex',
        label: `codex, config without ${omitted === 'required' ? 'required = true' : 'default_tools_approval_mode'}`,
        server: proxy(filesystem),
        steps: [read(mid), grepHandle],
        timeoutSeconds: 120,
        codexOmits: omitted,
      }),
    ),
    direct('claude', 'k60'),
    direct('claude', 'mid'),
    direct('claude', 'm6'),
    direct('claude', 'm7'),
    direct('claude', 'm8'),
    direct('claude', 'm12'),
    direct('claude', 'big'),
    direct('codex', 'mid'),
    direct('codex', 'big'),
    direct('gemini', 'mid'),
    direct('gemini', 'big'),
    ...(['claude', 'codex', 'gemini'] as const).map(
      (client): Scenario => ({
        id: `${client}-json-text`,
        client,
        label: `${client}, text results that parse as JSON`,
        server: textServer,
        steps: [replyText('[{"id":1},{"id":2}]'), replyText('{"id":1}'), replyText('plain text')],
        timeoutSeconds: 120,
      }),
    ),
    ...(['claude', 'codex', 'gemini'] as const).map((client) => {
      const received = join(options.files, `${client}-update-page.json`);
      return referenceRoundTrip({
        client,
        received,
        proxy: proxy(child('page-server.ts', received)),
      });
    }),
  ];
}
