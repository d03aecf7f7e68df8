// How each real client is started headless against the scripted model, with one MCP server:
// the config files it reads (written into a private home), its command line and environment.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { InstalledClients } from './install-clients.js';

/** The MCP server a client is given: a stdio command line. */
export interface ServerCommand {
  command: string;
  args: string[];
}

/** What a client run needs. */
export interface ClientSetup {
  clients: InstalledClients;
  /** The scripted model's base URL, `http://127.0.0.1:PORT`. */
  modelUrl: string;
  server: ServerCommand;
  /** A directory of the run's own: the client's home and config go there. */
  home: string;
  /** The working directory the client runs in. */
  cwd: string;
  prompt: string;
  /** Codex only: leave out `required = true` or `default_tools_approval_mode = "approve"`. */
  codexOmits?: 'required' | 'approval';
}

/** A client's command line and environment, its config files written. */
export interface ClientCommand {
  command: string;
  args: string[];
  env: Record<string, string>;
  /** The config that made it work, as a user would write it (for the docs). */
  config: string;
}

/** The client names the harness runs. */
export type ClientName = 'claude' | 'codex' | 'gemini';

/** Tool calls of big outputs take a while on a busy machine: ten minutes. */
const toolTimeoutSeconds = 600;

/** The environment every client starts with: no user config, no proxy, no telemetry. */
function baseEnv(home: string): Record<string, string> {
  const keep = ['PATH', 'LANG', 'TERM', 'TMPDIR', 'SystemRoot'];
  const env: Record<string, string> = { HOME: home, NO_COLOR: '1', CI: '1' };
  for (const name of keep) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}

/** Claude Code: `claude -p` with `--mcp-config`, the model at ANTHROPIC_BASE_URL. */
async function claude(setup: ClientSetup): Promise<ClientCommand> {
  const config = { mcpServers: { files: { type: 'stdio', ...setup.server } } };
  const configPath = join(setup.home, 'mcp.json');
  await writeFile(configPath, JSON.stringify(config, null, 2));
  return {
    command: setup.clients.claude.bin,
    args: [
      '-p',
      setup.prompt,
      '--mcp-config',
      configPath,
      '--strict-mcp-config',
      '--allowedTools',
      'mcp__files',
      '--model',
      'claude-sonnet-4-5',
      '--output-format',
      'json',
      '--max-turns',
      '8',
    ],
    env: {
      ...baseEnv(setup.home),
      ANTHROPIC_BASE_URL: setup.modelUrl,
      ANTHROPIC_API_KEY: 'scripted',
      CLAUDE_CONFIG_DIR: join(setup.home, '.claude'),
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
      MCP_TOOL_TIMEOUT: String(toolTimeoutSeconds * 1000),
      // MCP tools are deferred behind ToolSearch by default; the script calls them directly.
      ENABLE_TOOL_SEARCH: 'false',
    },
    config: JSON.stringify(config, null, 2),
  };
}

/** A TOML basic string. */
const toml = (text: string) => JSON.stringify(text);

/** Codex: `codex exec` with a custom model provider in a private CODEX_HOME. */
async function codex(setup: ClientSetup): Promise<ClientCommand> {
  const codexHome = join(setup.home, '.codex');
  await mkdir(codexHome, { recursive: true });
  const server = [
    '[mcp_servers.files]',
    `command = ${toml(setup.server.command)}`,
    `args = [${setup.server.args.map(toml).join(', ')}]`,
    ...(setup.codexOmits === 'required' ? [] : ['required = true']),
    ...(setup.codexOmits === 'approval' ? [] : ['default_tools_approval_mode = "approve"']),
    `tool_timeout_sec = ${toolTimeoutSeconds}`,
  ].join('\n');
  const provider = [
    'model = "scripted"',
    'model_provider = "scripted"',
    '',
    '[model_providers.scripted]',
    'name = "scripted"',
    `base_url = ${toml(`${setup.modelUrl}/v1`)}`,
    'wire_api = "responses"',
    'env_key = "SCRIPTED_API_KEY"',
  ].join('\n');
  await writeFile(join(codexHome, 'config.toml'), `${provider}\n\n${server}\n`);
  return {
    command: setup.clients.codex.bin,
    args: ['exec', '--skip-git-repo-check', '--json', '-C', setup.cwd, setup.prompt],
    env: { ...baseEnv(setup.home), CODEX_HOME: codexHome, SCRIPTED_API_KEY: 'scripted' },
    config: server,
  };
}

/** Gemini CLI: `gemini -p` with settings.json in a private home, the API at GOOGLE_GEMINI_BASE_URL. */
async function gemini(setup: ClientSetup): Promise<ClientCommand> {
  const directory = join(setup.home, '.gemini');
  await mkdir(directory, { recursive: true });
  const servers = {
    mcpServers: { files: { ...setup.server, trust: true, timeout: toolTimeoutSeconds * 1000 } },
  };
  const settings = {
    ...servers,
    security: { auth: { selectedType: 'gemini-api-key' } },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    general: { disableAutoUpdate: true, disableUpdateNag: true },
  };
  await writeFile(join(directory, 'settings.json'), JSON.stringify(settings, null, 2));
  return {
    command: setup.clients.gemini.bin,
    args: ['-p', setup.prompt, '--yolo', '-m', 'gemini-2.5-pro', '--output-format', 'json'],
    env: {
      ...baseEnv(setup.home),
      GEMINI_API_KEY: 'scripted',
      GOOGLE_GEMINI_BASE_URL: setup.modelUrl,
      GEMINI_CLI_TRUST_WORKSPACE: 'true',
    },
    config: JSON.stringify(servers, null, 2),
  };
}

/** Writes `name`'s config into `setup.home` and returns how to start it. */
export function clientCommand(name: ClientName, setup: ClientSetup): Promise<ClientCommand> {
  return { claude, codex, gemini }[name](setup);
}
