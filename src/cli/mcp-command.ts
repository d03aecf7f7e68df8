import { homedir, tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { listenStreamableHttp } from '../mcp/listen/listen-streamable-http.js';
import { McpSpoolProxy } from '../mcp/proxy/mcp-spool-proxy.js';
import type { UpstreamTransportFactory } from '../mcp/proxy/upstream-connection.js';
import { SpilledValues } from '../mcp/upstream/spilled-values.js';
import { StdioUpstreamTransport } from '../mcp/upstream/stdio-upstream-transport.js';
import { ArtifactStore } from '../store/artifact-store.js';
import type { Command } from './cli-context.js';
import { mcpUsage, type ProxySettings, parseProxyArguments } from './mcp-proxy-arguments.js';

/**
 * `spoolforge mcp [options] -- COMMAND [ARGS…]` and `spoolforge mcp [options] --upstream URL`:
 * the spooling proxy, on stdio or (`--listen`) Streamable HTTP, until the client goes away or
 * the process is told to stop. `spoolforge mcp serve …` is spoolforge's own file server.
 */
export const mcpCommand: Command = async (argv, context) => {
  if (argv[0] === 'serve') {
    const { runMcpServe } = await import('./mcp-serve-command.js');
    return runMcpServe(argv.slice(1), context);
  }
  const options = argv.includes('--') ? argv.slice(0, argv.indexOf('--')) : argv;
  if (argv.length === 0 || options.includes('--help') || options[0] === 'help') {
    context.output.writeText(mcpUsage);
    return 0;
  }
  const settings = parseProxyArguments(argv, process.env);
  const store = await ArtifactStore.open(settings.store ?? defaultStoreDirectory(process.env), {
    defaultTtl: settings.ttl,
  });
  // Expired outputs of earlier runs go now, in the background: a proxy starts as fast as its
  // upstream. Spool directories of proxies that died (a SIGKILL mid-result) go too.
  void store
    .gc({ spoolDirectory: tmpdir() })
    .catch((error: Error) => context.stderr.write(`spoolforge mcp: gc: ${error.message}\n`));
  const spilled = new SpilledValues();
  const proxy = new McpSpoolProxy({
    upstream: upstreamFactory(settings, spilled),
    store,
    threshold: settings.threshold,
    ttl: settings.ttl,
    timeout: settings.timeout,
    maxReferenceBytes: settings.maxReference,
    label: settings.label,
    resourceLinks: settings.resourceLinks,
    spilled,
    onError: (error) => context.stderr.write(`spoolforge mcp: ${error.message}\n`),
  });
  const stopped = new Promise<void>((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => resolve());
  });
  try {
    if (settings.listen) {
      const listener = await listenStreamableHttp(proxy, { ...settings.listen });
      context.stderr.write(`spoolforge mcp: serving ${listener.url} for ${settings.label}\n`);
      await stopped;
      await listener.close();
    } else {
      const transport = new StdioServerTransport();
      const closed = new Promise<void>((resolve) => {
        transport.onclose = resolve;
        process.stdin.once('end', resolve);
      });
      await proxy.connect(transport);
      await Promise.race([closed, stopped]);
    }
  } finally {
    await proxy.close();
    await spilled.releaseAll();
  }
  return 0;
};

function upstreamFactory(
  settings: ProxySettings,
  spilled: SpilledValues,
): UpstreamTransportFactory {
  const { upstream } = settings;
  if (upstream.kind === 'url') {
    return () =>
      new StreamableHTTPClientTransport(new URL(upstream.url), {
        requestInit: { headers: upstream.headers },
      });
  }
  return () =>
    new StdioUpstreamTransport({
      command: upstream.command,
      args: upstream.args,
      spilled,
      // A string past the threshold is spooled anyway: it goes to disk as it arrives.
      spillBytes: settings.threshold,
      maxMessageBytes: settings.maxResult,
    });
}

/**
 * `$XDG_STATE_HOME/spoolforge`, else `~/.local/state/spoolforge`: per user, kept across runs.
 * A relative `XDG_STATE_HOME` is ignored, as the XDG specification says.
 */
function defaultStoreDirectory(environment: NodeJS.ProcessEnv): string {
  const state = environment.XDG_STATE_HOME;
  const base =
    state && isAbsolute(state) ? state : join(environment.HOME || homedir(), '.local', 'state');
  return join(base, 'spoolforge');
}
