import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { cliPath, runCli } from '../helpers/run-cli.js';
import { tempDirectory, tempFile } from '../helpers/temp-files.js';

describe('CLI errors', () => {
  it.each([
    [
      ['head', '/nonexistent/file.log'],
      'spoolforge: /nonexistent/file.log: No such file or directory',
    ],
    [['grep', 'x', '/'], 'spoolforge: /: Is a directory'],
    [
      ['grep', '(unclosed', 'FILE'],
      'spoolforge: Invalid regular expression /(unclosed/: Unterminated group',
    ],
    [['head', '-n', 'ten', 'FILE'], "spoolforge: invalid number of lines: 'ten'"],
    [['grep', '-m', '-1', 'x', 'FILE'], "spoolforge: invalid number of matches: '-1'"],
    [['lines', '0', '3', 'FILE'], 'spoolforge: invalid usage of line address 0'],
    [['lines', '1', 'FILE'], 'spoolforge: missing SOURCE'],
    [['grep', '-Q', 'x', 'FILE'], "spoolforge: invalid option -- 'Q'"],
    [['tail', 'FILE', 'extra'], "spoolforge: extra operand 'extra'"],
    [['frobnicate'], "spoolforge: unknown command 'frobnicate'"],
    [
      // fetch never sends to port 1; the token stays out of the message.
      ['head', 'http://127.0.0.1:1/log?token=secret'],
      'spoolforge: http://127.0.0.1:1/log: bad port',
    ],
  ])('%j → one line on stderr, exit 2', async (args, message) => {
    const path = await tempFile('some text\n');
    const result = await runCli(args.map((arg) => (arg === 'FILE' ? path : arg)));
    expect(result.status).toBe(2);
    expect(result.stdout.length).toBe(0);
    expect(result.stderr.split('\n')[0]).toBe(message);
    if (args[0] !== 'frobnicate') expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it("prints its usage on standard output for --help, -h, help and a command's --help", async () => {
    for (const args of [
      ['--help'],
      ['-h'],
      ['help'],
      ['grep', '--help'],
      ['tail', '-n', '3', '--help'],
    ]) {
      const result = await runCli(args);
      expect(result.status, args.join(' ')).toBe(0);
      expect(result.stdout.toString()).toMatch(/^Usage:\n {2}spoolforge head/);
      expect(result.stdout.toString()).toContain('Exit status: 0 found/ok');
      // What a GNU grep user needs to know: -E, -h, the cache and how to turn it off.
      expect(result.stdout.toString()).toContain('-E is accepted and changes');
      expect(result.stdout.toString()).toContain('SPOOLFORGE_CACHE_DIR=off turns it off');
    }
    // After --, --help is a pattern like any other.
    const file = await tempFile('a --help line\nanother\n');
    const pattern = await runCli(['grep', '--', '--help', file]);
    expect(pattern.stdout.toString()).toBe('a --help line\n');
  });

  it('prints its version for --version and -V', async () => {
    const { version } = JSON.parse(
      await readFile(new URL('../../package.json', import.meta.url), 'utf8'),
    );
    for (const flag of ['--version', '-V']) {
      const result = await runCli([flag]);
      expect(result.status).toBe(0);
      expect(result.stdout.toString()).toBe(`spoolforge ${version}\n`);
    }
  });

  it.runIf(existsSync('/dev/full'))('fails with exit 2 when its output cannot be written', () => {
    const result = spawnSync('bash', ['-c', `node ${cliPath} --help > /dev/full`]);
    expect(result.status).toBe(2);
    expect(result.stderr.toString()).toMatch(/^spoolforge: ENOSPC: no space left on device/);
  });

  it.each([
    ['one pass', 600_000, '1'], // 10 MiB, far past a pipe's buffer
    ['parallel parts', 4_400_000, '2'], // 70 MiB: parts hand over their output whole
  ])(
    'delivers every byte to a pipe its reader leaves full for a while (%s)',
    async (_, lines, threads) => {
      const path = await tempFile('0123456789abcdef\n'.repeat(lines));
      const child = spawn(process.execPath, [cliPath, 'grep', 'abc', path], {
        env: { ...process.env, SPOOLFORGE_THREADS: threads },
      });
      child.stdout.pause();
      await new Promise((resolve) => setTimeout(resolve, 300));
      const chunks: Buffer[] = [];
      child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk)).resume();
      const status = await new Promise((resolve) => child.on('close', resolve));
      expect(status).toBe(0);
      expect(Buffer.concat(chunks).equals(await readFile(path))).toBe(true);
    },
  );

  it('exits 1 when grep selects nothing, 0 when it does', async () => {
    const path = await tempFile('alpha\nbeta\n');
    expect((await runCli(['grep', 'gamma', path])).status).toBe(1);
    expect((await runCli(['grep', '-c', 'gamma', path])).stdout.toString()).toBe('0\n');
    expect((await runCli(['grep', 'beta', path])).status).toBe(0);
  });

  it('ends by draining its event loop, keeping its exit status, on one thread and on several', async () => {
    // process.exit() can hang Node 24 for good (V8's workers shut down under a compile job that
    // waits for the main thread); only a natural end emits beforeExit.
    const marker = `data:text/javascript,process.on('beforeExit',()=>process.stderr.write('drained\\n'))`;
    const path = await tempFile('0123456789abcdef\n'.repeat(4_400_000));
    for (const [args, threads, status] of [
      [['grep', '-c', 'abc', path], '2', 0],
      [['grep', 'gamma', path], '1', 1],
      [['head', '-n', '1', path], '1', 0],
      [['head', '/nonexistent/file.log'], '1', 2],
    ] as const) {
      const result = spawnSync(process.execPath, ['--import', marker, cliPath, ...args], {
        env: { ...process.env, SPOOLFORGE_THREADS: threads, SPOOLFORGE_CACHE_DIR: 'off' },
      });
      expect(result.status, args.join(' ')).toBe(status);
      expect(result.stderr.toString(), args.join(' ')).toMatch(/(^|\n)drained\n$/);
    }
  });

  it('stops quietly when the reader of its output goes away', async () => {
    const path = await tempFile('line\n'.repeat(2_000_000));
    const result = spawnSync('bash', [
      '-c',
      `set -o pipefail; node ${cliPath} grep line ${path} | head -n 1`,
    ]);
    expect(result.stdout.toString()).toBe('line\n');
    expect(result.stderr.toString()).toBe('');
  });

  it('shows progress on a terminal during a long scan, and only there', async () => {
    const directory = await tempDirectory();
    // A slow producer keeps the scan running past the one-second threshold.
    const feed = `for i in $(seq 1 15); do head -c 200000 /dev/zero | tr '\\0' 'x'; echo; sleep 0.1; done`;
    const command = `${feed} | node ${cliPath} count - 2>${directory}/stderr`;
    const onTerminal = spawnSync('script', [
      '-qec',
      `${feed} | node ${cliPath} count -`,
      '/dev/null',
    ]);
    expect(onTerminal.stdout.toString()).toMatch(/spoolforge: scanned [\d.]+ (KiB|MiB)/);
    expect(onTerminal.stdout.toString()).toMatch(/15\r?\n/);
    const piped = spawnSync('bash', ['-c', `${command}; cat ${directory}/stderr`]);
    expect(piped.stdout.toString()).toBe('15\n');
  });
});
