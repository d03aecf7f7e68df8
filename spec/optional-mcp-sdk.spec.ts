// The MCP SDK is an optional peer dependency: a project without it imports the main entry and
// every adapter entry, runs the CLI's file commands, and gets E_MISSING_PEER naming the package
// from `spoolforge mcp`. The project is a copy of the built package beside links to the
// repository's dependencies, all but the @modelcontextprotocol scope, so Node cannot find it.
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const project = mkdtempSync(join(tmpdir(), 'spoolforge-no-mcp-'));
const modules = join(project, 'node_modules');
mkdirSync(modules);
for (const name of readdirSync(join(root, 'node_modules'))) {
  if (name.startsWith('.') || name === '@modelcontextprotocol') continue;
  symlinkSync(join(root, 'node_modules', name), join(modules, name));
}
// A copy, not a link: its imports resolve from this project, as in an installed package.
const installed = join(modules, 'spoolforge');
cpSync(join(root, 'dist'), join(installed, 'dist'), { recursive: true });
cpSync(join(root, 'package.json'), join(installed, 'package.json'));
writeFileSync(join(project, 'package.json'), '{ "type": "module" }\n');
writeFileSync(join(project, 'log.txt'), 'one\ntwo\nthree');
afterAll(() => rmSync(project, { recursive: true, force: true }));

function node(args: string[]) {
  return spawnSync(process.execPath, args, { cwd: project, encoding: 'utf8' });
}

describe('without @modelcontextprotocol/sdk installed', () => {
  it('cannot resolve the SDK from the project', () => {
    const result = node(['-e', "import('@modelcontextprotocol/sdk/types.js')"]);
    expect(result.stderr).toContain("Cannot find package '@modelcontextprotocol/sdk'");
  });

  it.each([
    'spoolforge',
    'spoolforge/engine',
    'spoolforge/openai',
    'spoolforge/anthropic',
    'spoolforge/ai-sdk',
    'spoolforge/openai-agents',
    'spoolforge/google',
    'spoolforge/postgres',
    'spoolforge/s3',
  ])('imports %s', (entry) => {
    const result = node(['--input-type=module', '-e', `await import(${JSON.stringify(entry)})`]);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it("fails to import spoolforge/mcp with Node's error naming the package, as other peers do", () => {
    const result = node(['--input-type=module', '-e', "await import('spoolforge/mcp')"]);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain("Cannot find package '@modelcontextprotocol/sdk'");
  });

  it('runs the file commands, and `spoolforge mcp` says what to install', () => {
    const cli = join(installed, 'dist', 'cli', 'main.js');
    expect(node([cli, 'count', 'log.txt'])).toMatchObject({ status: 0, stdout: '3\n' });
    expect(node([cli, 'tail', '-n', '1', 'log.txt'])).toMatchObject({ status: 0, stdout: 'three' });
    for (const args of [
      ['mcp', '--', 'node', 'server.js'],
      ['mcp', 'serve', '--root', '.'],
    ]) {
      const result = node([cli, ...args]);
      expect(result.status).toBe(2);
      expect(result.stderr).toBe(
        'spoolforge: spoolforge mcp needs @modelcontextprotocol/sdk, an optional peer dependency of spoolforge that is not installed: npm install @modelcontextprotocol/sdk\n',
      );
    }
  });
});
