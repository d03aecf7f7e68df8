#!/usr/bin/env node
import { importPeer } from '../shared/import-peer.js';
import { SpoolforgeError } from '../shared/spoolforge-error.js';
import type { CliContext, Command } from './cli-context.js';
import { headCommand, linesCommand, tailCommand } from './head-tail-commands.js';
import { Output } from './output.js';

const usage = `Usage:
  spoolforge head  [-n N] SOURCE
  spoolforge tail  [-n N] SOURCE
  spoolforge grep  [-E] [-F] [-i] [-w] [-x] [-v] [-c] [-n] [-o] [-q] [-s] [-l] [-L] [-H] [-h]
                   [-m N] [-A N] [-B N] [-C N] PATTERN | -e PATTERN... [SOURCE...]
  spoolforge lines START END SOURCE     # 1-based inclusive, as sed -n 'START,ENDp'
  spoolforge count SOURCE               # lines; a final line without a newline counts
  spoolforge stat  SOURCE               # JSON: bytes, lines, detected kind
  spoolforge json  [--limit N] [--format json|jsonl] PATH SOURCE   # JSONPath, as jq -c prints
  spoolforge md    headings|sections [--depth N] SOURCE   # LINE:## Title, START-END:## Title
  spoolforge md    section NAME | section --index N | code [LANG] SOURCE   # lines as written
  spoolforge mcp   [options] -- COMMAND [ARGS...] | --upstream URL   # spooling MCP proxy
  spoolforge mcp serve --root DIR... [--allow-url PREFIX...]         # files as MCP tools
  spoolforge --version | -V | --help | help

SOURCE is a file path, an http(s) URL (read with Range requests) or - for standard input
(grep reads standard input when no SOURCE is given). Output is GNU head, tail, grep -a and
sed -n's. Exit status: 0 found/ok, 1 nothing found (grep, json, md), 2 error.

PATTERN is a JavaScript regular expression whatever the flags (-E is accepted and changes
nothing; -F for a fixed string). grep -h means no file names; spoolforge --help is this text.

Every command takes, for http(s) SOURCEs:
  --timeout SECONDS   per request (headers or next body chunk); env SPOOLFORGE_HTTP_TIMEOUT;
                      default 30
  --retries N         after network errors, timeouts, 408, 429, 5xx; env
                      SPOOLFORGE_HTTP_RETRIES; default 4

Line index cache: lines, count and stat keep the line index of a file of 16 MiB or more
under $SPOOLFORGE_CACHE_DIR, else $XDG_CACHE_HOME/spoolforge, else ~/.cache/spoolforge, so
the next call seeks instead of scanning. SPOOLFORGE_CACHE_DIR=off turns it off.
`;

// Start-up is most of a `tail`'s time. head, tail and lines are small and load with this module
// (each module loaded costs ~0.5 ms); grep, count and stat bring their engines and workers, so
// they load when run.
const commands: Record<string, () => Promise<Command>> = {
  head: async () => headCommand,
  tail: async () => tailCommand,
  grep: async () => (await import('./grep-command.js')).grepCommand,
  lines: async () => linesCommand,
  count: async () => (await import('./count-stat-commands.js')).countCommand,
  stat: async () => (await import('./count-stat-commands.js')).statCommand,
  // The MCP SDK is an optional peer dependency: only these commands need it.
  mcp: async () => {
    const load = () => import('./mcp-command.js');
    const feature = 'spoolforge mcp';
    return (await importPeer(load, { peer: '@modelcontextprotocol/sdk', feature })).mcpCommand;
  },
  json: async () => (await import('./json-command.js')).jsonCommand,
  md: async () => (await import('./md-command.js')).mdCommand,
};

/**
 * Runs the CLI with `argv` (without `node` and the script) and returns the exit status.
 * Failures print one line on standard error and return 2.
 *
 * @example
 * ```ts
 * process.exitCode = await runCli(['grep', '-c', 'ERROR', 'build.log'], context);
 * ```
 */
async function runCli(argv: readonly string[], context: CliContext): Promise<number> {
  const status = await runCommand(argv, context).catch((error: unknown) => fail(error, context));
  // Output not written (a full disk) fails the run; a reader gone away (EPIPE) does not.
  return context.output.end().then(
    () => status,
    (error: unknown) => fail(error, context),
  );
}

async function runCommand(argv: readonly string[], context: CliContext): Promise<number> {
  const [name, ...rest] = argv;
  // --help anywhere before `--` (a command's own too); -h only in first place: in grep it is
  // GNU's no-filename.
  const options = argv.indexOf('--') === -1 ? argv : argv.slice(0, argv.indexOf('--'));
  // mcp reads its own --help (and `mcp serve`'s).
  if (name === 'help' || name === '-h' || (name !== 'mcp' && options.includes('--help'))) {
    context.output.writeText(usage);
    return 0;
  }
  if (name === '--version' || name === '-V') {
    context.output.writeText(`spoolforge ${await packageVersion()}\n`);
    return 0;
  }
  const load = name !== undefined && Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!load) {
    context.stderr.write(
      `spoolforge: ${name ? `unknown command '${name}'` : 'missing command'}\n${usage}`,
    );
    return 2;
  }
  return (await load())(rest, context);
}

/** Read when asked: the bundle carries no copy of package.json. */
async function packageVersion(): Promise<string> {
  const { readFile } = await import('node:fs/promises');
  const text = await readFile(new URL('../../package.json', import.meta.url), 'utf8');
  return (JSON.parse(text) as { version: string }).version;
}

function fail(error: unknown, context: CliContext): number {
  const message = SpoolforgeError.isInstance(error)
    ? error.message
    : String((error as Error)?.message ?? error);
  context.stderr.write(`spoolforge: ${message.split('\n')[0]}\n`);
  return 2;
}

const output = new Output(1, () => process.stdout);
const status = await runCli(process.argv.slice(2), {
  // Getters: creating a stdio stream costs start-up time (a pipe's loads `net`), and most runs
  // never read standard input or write to standard error.
  get stdin() {
    return process.stdin;
  },
  output,
  get stderr() {
    return process.stderr;
  },
});
// Not process.exit(): it shuts V8's worker threads down while the isolate still runs, and a
// background compile job waiting there for the main thread's garbage collection then never
// returns; Node 24 hung that way after printing everything, once in 20-30 runs under load. Nothing
// holds the event loop once runCli returns, so the process ends as soon as it would have.
process.exitCode = status;
