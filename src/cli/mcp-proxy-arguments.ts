import { defaultMaxReferenceBytes } from '../artifact/references/resolve-references.js';
import { defaultMaxSessions } from '../mcp/listen/listen-streamable-http.js';
import { McpSpoolProxy } from '../mcp/proxy/mcp-spool-proxy.js';
import { SpoolforgeError } from '../shared/spoolforge-error.js';

/** `spoolforge mcp --help`. */
export const mcpUsage = `Usage:
  spoolforge mcp [options] -- COMMAND [ARGS...]     proxy a stdio MCP server
  spoolforge mcp [options] --upstream URL [--header 'K: V']...   proxy a Streamable HTTP one
  spoolforge mcp serve --root DIR... [--allow-url PREFIX...]     files and URLs as MCP tools

A result whose text, embedded text and structured content pass the threshold is kept in the
store; the client gets a short handle, a resource link, and the tools artifact_read,
artifact_grep, artifact_list, artifact_json and artifact_md to query it by its id. Any tool
argument may pass a stored output on: {"$artifact": ID} with "lines", "json" or "grep".

Options:
  --threshold SIZE     spool results past this (default 16K: ~4k-8k tokens). Codex CLI
                       0.171 showed its model 12,020 characters of a 1 MB result: with
                       Codex, 11K keeps what is inlined under that
  --store DIR          the store (default $XDG_STATE_HOME/spoolforge, else ~/.local/state/spoolforge)
  --ttl DURATION       how long an output stays queryable: 90s, 30m, 12h, 7d (default 7d)
  --timeout SECONDS    an upstream request unanswered this long fails; 0 never (default 300)
  --max-result SIZE    the largest upstream message accepted (default 1G)
  --max-reference SIZE what references ({"$artifact": ID, ...}) may put into one call's
                       arguments before it goes upstream (default 1M)
  --listen HOST:PORT   serve Streamable HTTP at http://HOST:PORT/mcp instead of stdio
  --token TOKEN        with --listen: require "Authorization: Bearer TOKEN" (env SPOOLFORGE_MCP_TOKEN)
  --allow-origin URL   with --listen: an Origin allowed besides the listener's own (repeatable)
  --allow-host HOST    with --listen: a Host header allowed besides the listener's (repeatable)
  --max-sessions N     with --listen: the most sessions open at once, each with its own
                       upstream; an initialize past it is answered 503 (default ${defaultMaxSessions})
  --resource-links auto|always|never
                       a resource_link beside each handle (auto: for clients on MCP 2025-06-18
                       or later)
SIZE is bytes, or with K, M or G (KiB, MiB, GiB).
`;

/** What the proxy command was asked to do. */
export interface ProxySettings {
  upstream:
    | { kind: 'command'; command: string; args: string[] }
    | { kind: 'url'; url: string; headers: Record<string, string> };
  /** The upstream as a person reads it: messages and the scope of its outputs. */
  label: string;
  threshold: number;
  store: string | undefined;
  ttl: number;
  timeout: number;
  maxResult: number;
  maxReference: number;
  resourceLinks: boolean | 'auto';
  listen:
    | {
        host: string;
        port: number;
        token: string | undefined;
        allowedOrigins: string[];
        allowedHosts: string[];
        maxSessions: number;
      }
    | undefined;
}

const valued = [
  '--threshold',
  '--store',
  '--ttl',
  '--timeout',
  '--max-result',
  '--max-reference',
  '--upstream',
  '--header',
  '--listen',
  '--token',
  '--allow-origin',
  '--allow-host',
  '--resource-links',
  '--max-sessions',
];
const listenOnly = ['--token', '--allow-origin', '--allow-host', '--max-sessions'];
/** The most seconds a Node timer waits (about 24.8 days). */
const maxSeconds = Math.floor((2 ** 31 - 1) / 1000);

/**
 * Parses `spoolforge mcp`'s arguments (options before `--`, the upstream command after it).
 *
 * @example
 * ```ts
 * parseProxyArguments(['--threshold', '32K', '--', 'npx', 'server-github'], {}).threshold; // 32768
 * ```
 */
export function parseProxyArguments(
  argv: readonly string[],
  environment: NodeJS.ProcessEnv,
): ProxySettings {
  const values = new Map<string, string[]>();
  let command: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index] as string;
    if (argument === '--') {
      command = argv.slice(index + 1);
      break;
    }
    const [name = '', inline] = argument.split(/=(.*)/s, 2);
    if (!valued.includes(name)) {
      const hint = argument.startsWith('-')
        ? ''
        : ` (the server's command goes after --: spoolforge mcp -- ${argv.slice(index).join(' ')})`;
      throw usage(`unrecognized option '${argument}'${hint}`);
    }
    const value = inline ?? argv[++index];
    if (value === undefined) throw usage(`option '${name}' requires a value`);
    values.set(name, [...(values.get(name) ?? []), value]);
  }
  const last = (name: string) => values.get(name)?.at(-1);
  const url = last('--upstream');
  if (url !== undefined && command.length > 0)
    throw usage('give --upstream URL or -- COMMAND, not both');
  const [program, ...args] = command;
  if (url === undefined && program === undefined)
    throw usage('no upstream: give -- COMMAND [ARGS...] or --upstream URL');
  const upstream: ProxySettings['upstream'] =
    url !== undefined
      ? { kind: 'url', url: checkedUrl(url), headers: headers(values.get('--header') ?? []) }
      : { kind: 'command', command: program as string, args };
  const listen = last('--listen');
  const stray = listenOnly.find((name) => values.has(name));
  if (listen === undefined && stray) throw usage(`${stray} applies to --listen only`);
  return {
    upstream,
    // The URL without its query: an API key there must not reach a model's error messages.
    label: upstream.kind === 'url' ? labelOf(upstream.url) : command.join(' '),
    threshold: size(last('--threshold'), McpSpoolProxy.defaultThreshold, '--threshold'),
    store: last('--store'),
    ttl: duration(last('--ttl') ?? '7d'),
    timeout: seconds(last('--timeout') ?? '300', '--timeout') * 1000,
    resourceLinks: resourceLinks(last('--resource-links') ?? 'auto'),
    maxResult: size(last('--max-result'), 1024 ** 3, '--max-result'),
    maxReference: size(last('--max-reference'), defaultMaxReferenceBytes, '--max-reference'),
    listen:
      listen === undefined
        ? undefined
        : {
            ...hostPort(listen),
            token: last('--token') ?? (environment.SPOOLFORGE_MCP_TOKEN || undefined),
            allowedOrigins: values.get('--allow-origin') ?? [],
            allowedHosts: values.get('--allow-host') ?? [],
            maxSessions: count(
              last('--max-sessions') ?? String(defaultMaxSessions),
              '--max-sessions',
            ),
          },
  };
}

function usage(message: string): SpoolforgeError {
  return new SpoolforgeError('E_INVALID_ARGUMENT', `mcp: ${message} (spoolforge mcp --help)`);
}

function size(text: string | undefined, fallback: number, name: string): number {
  if (text === undefined) return fallback;
  const match = /^(\d+)(?:([KMG])(?:iB)?)?$/i.exec(text.trim());
  if (!match) throw usage(`${name} takes a size such as 16384, 64K or 1G, not '${text}'`);
  const unit = { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 }[(match[2] ?? '').toUpperCase()] ?? 1;
  return Number(match[1]) * unit;
}

function count(text: string, name: string): number {
  if (!/^[1-9]\d{0,5}$/.test(text.trim()))
    throw usage(`${name} takes a whole number from 1, not '${text}'`);
  return Number(text);
}

function seconds(text: string, name: string): number {
  if (!/^\d+(?:\.\d+)?$/.test(text.trim()) || Number(text) > maxSeconds) {
    throw usage(`${name} takes seconds up to ${maxSeconds} (0 for none), not '${text}'`);
  }
  return Number(text);
}

function duration(text: string): number {
  const match = /^(\d+(?:\.\d+)?)([smhd]?)$/.exec(text.trim());
  if (!match) throw usage(`--ttl takes a duration such as 90s, 30m, 12h or 7d, not '${text}'`);
  const unit = { '': 1, s: 1, m: 60, h: 3600, d: 86_400 }[match[2] ?? ''] ?? 1;
  const milliseconds = Number(match[1]) * unit * 1000;
  if (milliseconds <= 0)
    throw usage('--ttl must be more than 0: an output must live to be queried');
  return milliseconds;
}

function checkedUrl(text: string): string {
  const parsed = URL.canParse(text) ? new URL(text) : undefined;
  if (parsed?.protocol !== 'http:' && parsed?.protocol !== 'https:') {
    throw usage(`--upstream takes an http(s) URL, not '${text}'`);
  }
  if (parsed.username || parsed.password) {
    throw usage("--upstream takes no user:password in the URL: pass --header 'Authorization: …'");
  }
  return parsed.href;
}

function headers(lines: readonly string[]): Record<string, string> {
  const result: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw usage(`--header takes 'Name: value', not '${line}'`);
    result[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return result;
}

function hostPort(text: string): { host: string; port: number } {
  const match = /^(?:\[([^\]]+)\]|([^:]+)):(\d+)$/.exec(text);
  const port = Number(match?.[3]);
  if (!match || port > 65_535)
    throw usage(`--listen takes HOST:PORT (127.0.0.1:8808), not '${text}'`);
  return { host: (match[1] ?? match[2]) as string, port };
}

function labelOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}

function resourceLinks(text: string): boolean | 'auto' {
  if (text === 'auto') return 'auto';
  if (text === 'always' || text === 'never') return text === 'always';
  throw usage(`--resource-links takes auto, always or never, not '${text}'`);
}
