import { readFile } from 'node:fs/promises';
import type { CliContext } from './cli-context.js';
import { parseArguments, usageError } from './parse-arguments.js';
import { httpOptions, sourceOptions } from './source-operand.js';

const usage = `Usage: spoolforge mcp serve --root DIR... [--allow-url PREFIX...] [--timeout SECONDS] [--retries N]

An MCP server on standard input and output whose tools query huge files and URLs in place:
file_read, file_grep, file_stat, file_list, file_json, file_md (lines 1-based, inclusive; every
result bounded and numbered, and a cut one names the call that continues it).

  --root DIR          a directory whose files may be read; repeat for more. A path is absolute
                      or relative to the first root, and must resolve (links and .. included)
                      inside a root
  --allow-url PREFIX  an http(s) URL prefix that may be read with Range requests (same scheme,
                      host and port, and a path under PREFIX's by whole segments); repeat for more
  --timeout SECONDS   per HTTP request; env SPOOLFORGE_HTTP_TIMEOUT; default 30
  --retries N         HTTP retries; env SPOOLFORGE_HTTP_RETRIES; default 4

At least one --root or --allow-url. Line indexes of files of 16 MiB or more are kept in the
CLI's line index cache (SPOOLFORGE_CACHE_DIR=off turns it off).
`;

/** Options that may repeat, each value kept. */
const repeatable = ['root', 'allow-url'] as const;

/**
 * `spoolforge mcp serve --root DIR… [--allow-url PREFIX…]`: serves {@link createFileServer}'s
 * tools over stdio until the client closes standard input (or the connection). Resolves with the
 * exit status; a usage error is thrown, as by every command.
 *
 * @example
 * ```ts
 * const status = await runMcpServe(['--root', '/var/log'], context);
 * ```
 */
export async function runMcpServe(args: readonly string[], context: CliContext): Promise<number> {
  const values: Record<(typeof repeatable)[number], string[]> = { root: [], 'allow-url': [] };
  const rest: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const argument = args[index] ?? '';
    const match = /^--(root|allow-url)(?:=(.*))?$/s.exec(argument);
    if (!match) {
      rest.push(argument);
      continue;
    }
    const name = match[1] as (typeof repeatable)[number];
    const value = match[2] ?? args[++index];
    if (value === undefined) throw usageError(`option '--${name}' requires an argument`);
    values[name].push(value);
  }
  const { options, operands } = parseArguments(rest, [...sourceOptions, { long: 'help' }]);
  if (options.has('help')) {
    context.output.writeText(usage);
    return 0;
  }
  if (operands.length > 0) throw usageError(`extra operand '${operands[0]}'`);
  if (values.root.length === 0 && values['allow-url'].length === 0) {
    throw usageError('mcp serve needs at least one --root DIR or --allow-url PREFIX');
  }
  const [{ createFileServer }, { StdioServerTransport }] = await Promise.all([
    import('../mcp/file-server/create-file-server.js'),
    import('@modelcontextprotocol/sdk/server/stdio.js'),
  ]);
  const server = createFileServer({
    roots: values.root,
    allowUrls: values['allow-url'],
    http: httpOptions(options),
    version: await packageVersion(),
  });
  const closed = new Promise<void>((resolve) => {
    const onclose = server.onclose;
    server.onclose = () => {
      onclose?.();
      resolve();
    };
  });
  // The transport listens for data only: the end of standard input is the client leaving.
  const stdin = process.stdin;
  const leave = () => void server.close();
  stdin.once('end', leave).once('close', leave);
  await server.connect(new StdioServerTransport(stdin, process.stdout));
  await closed;
  stdin.off('end', leave).off('close', leave);
  return 0;
}

async function packageVersion(): Promise<string> {
  const text = await readFile(new URL('../../package.json', import.meta.url), 'utf8');
  return (JSON.parse(text) as { version: string }).version;
}
