// The real MCP clients are large downloads (Claude Code's native binary alone is ~400 MB), so
// they are installed with `npm install --prefix` into a cache outside the repository, never as
// dependencies of the package.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** One installed package: its version and the executable the harness runs. */
export interface InstalledPackage {
  name: string;
  version: string;
  bin: string;
}

/** The clients and the MCP server the harness runs. */
export interface InstalledClients {
  prefix: string;
  claude: InstalledPackage;
  codex: InstalledPackage;
  gemini: InstalledPackage;
  filesystem: InstalledPackage;
}

const packages = {
  claude: { name: '@anthropic-ai/claude-code', bin: 'claude' },
  codex: { name: '@openai/codex', bin: 'codex' },
  gemini: { name: '@google/gemini-cli', bin: 'gemini' },
  filesystem: { name: '@modelcontextprotocol/server-filesystem', bin: 'mcp-server-filesystem' },
} as const;

/**
 * Where the clients are installed: `SPOOLFORGE_CLIENTS_PREFIX`, else
 * `~/.cache/spoolforge/bench-clients`.
 */
export const clientsPrefix =
  process.env.SPOOLFORGE_CLIENTS_PREFIX ?? join(homedir(), '.cache', 'spoolforge', 'bench-clients');

/**
 * Installs the latest clients into {@link clientsPrefix} when one is missing or `update` is set
 * (`@latest` each: npm would otherwise pick an older Claude Code whose `engines` fit Node 20; the
 * native binary runs on any), and returns their versions and executables.
 */
export function installClients(options: { update?: boolean } = {}): InstalledClients {
  const binOf = (bin: string) => join(clientsPrefix, 'node_modules', '.bin', bin);
  const missing = Object.values(packages).some(({ bin }) => !existsSync(binOf(bin)));
  if (missing || options.update) {
    console.error(`installing the clients into ${clientsPrefix} (several hundred MB)…`);
    const specs = Object.values(packages).map(({ name }) => `${name}@latest`);
    const install = spawnSync(
      'npm',
      ['install', '--prefix', clientsPrefix, '--no-audit', '--no-fund', ...specs],
      { stdio: 'inherit' },
    );
    if (install.status !== 0) throw new Error(`npm install --prefix ${clientsPrefix} failed`);
  }
  const installed = (key: keyof typeof packages): InstalledPackage => {
    const { name, bin } = packages[key];
    const manifest = join(clientsPrefix, 'node_modules', name, 'package.json');
    const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
    return { name, version, bin: binOf(bin) };
  };
  return {
    prefix: clientsPrefix,
    claude: installed('claude'),
    codex: installed('codex'),
    gemini: installed('gemini'),
    filesystem: installed('filesystem'),
  };
}
