import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { repositoryRoot } from '../shared/bench-paths.js';

/** The built CLI the bench runs as the proxy. */
export const cliPath = join(repositoryRoot, 'dist', 'cli', 'main.js');
const upstreamPath = join(repositoryRoot, 'bench', 'mcp', 'children', 'upstream-server.ts');

/** The upstream server as a command line: `node --import tsx upstream-server.ts`. */
export const upstreamArgv = [process.execPath, '--import', 'tsx', upstreamPath];

/** The proxy over the upstream: `node dist/cli/main.js mcp --store DIR -- <upstream>`. */
export const proxyArgv = (storeDirectory: string) => [
  process.execPath,
  cliPath,
  'mcp',
  '--store',
  storeDirectory,
  '--',
  ...upstreamArgv,
];

/** An SDK client connected over stdio to the process `argv` starts. */
export interface StdioConnection {
  client: Client;
  /** The process the transport started (the proxy, or the upstream when called directly). */
  pid: number;
  close: () => Promise<void>;
}

/**
 * Starts `argv` and connects an SDK `Client` to it over `StdioClientTransport`.
 *
 * @example
 * ```ts
 * const proxy = await connectStdio(proxyArgv(storeDirectory));
 * ```
 */
export async function connectStdio(argv: readonly string[]): Promise<StdioConnection> {
  const [command, ...args] = argv;
  if (command === undefined) throw new Error('empty command');
  const transport = new StdioClientTransport({
    command,
    args,
    cwd: repositoryRoot,
    env: { ...process.env } as Record<string, string>,
    stderr: 'inherit',
  });
  const client = new Client({ name: 'spoolforge-bench', version: '1.0.0' });
  await client.connect(transport);
  const pid = transport.pid;
  if (pid === null) throw new Error(`${argv.join(' ')}: no process id`);
  return { client, pid, close: () => client.close() };
}

/** Big results take a while on a busy machine: far above the SDK's 60 s default. */
const callTimeout = 600_000;

/**
 * Calls a tool and returns its result; a protocol error or an `isError` result throws, so a
 * broken run never prints numbers.
 *
 * @example
 * ```ts
 * const result = await callTool(proxy.client, 'text', { bytes: 30_000_000 });
 * ```
 */
export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<CallToolResult> {
  const result = (await client.callTool({ name, arguments: args }, undefined, {
    timeout: callTimeout,
  })) as CallToolResult;
  if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content).slice(0, 2000)}`);
  return result;
}

/**
 * A process's peak resident set size so far (`VmHWM` of `/proc/PID/status`), in bytes.
 *
 * @example
 * ```ts
 * const peak = await peakRssBytes(proxy.pid);
 * ```
 */
export async function peakRssBytes(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const match = /^VmHWM:\s+(\d+) kB$/m.exec(status);
  if (!match) throw new Error(`/proc/${pid}/status: no VmHWM`);
  return Number(match[1]) * 1024;
}

/** `getconf CLK_TCK`: 100 on every Linux Node runs on. */
const clockTicksPerSecond = 100;

/**
 * CPU seconds (user + system) a process has used so far, from `/proc/PID/stat`.
 *
 * @example
 * ```ts
 * const before = await cpuSeconds(proxy.pid);
 * ```
 */
export async function cpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return ticks / clockTicksPerSecond;
}

/** The text of a result's first text part ('' when there is none). */
export function firstText(result: CallToolResult): string {
  const part = result.content.find((item) => item.type === 'text');
  return part?.type === 'text' ? part.text : '';
}
