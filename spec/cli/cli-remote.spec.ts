import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { serveFiles, startServer, urlOf } from '../helpers/http-servers.js';
import { runCli } from '../helpers/run-cli.js';
import { tempFile } from '../helpers/temp-files.js';

/** About 8 MiB of log lines, a rare ERROR every 997 lines, no final newline. */
const log = Array.from(
  { length: 110_000 },
  (_, line) =>
    `2026-11-22T07:${String(line % 60).padStart(2, '0')} ${line % 997 === 0 ? 'ERROR disk full' : 'INFO ok'} ${'.'.repeat(line % 90)}`,
).join('\n');

describe('CLI with an http(s) SOURCE', () => {
  it('prints what it prints for the local file, byte for byte', async () => {
    const path = await tempFile(log, 'service.log');
    const server = await startServer(serveFiles(path));
    const url = urlOf(server, path, '?X-Amz-Signature=secret');
    for (const args of [
      ['head', '-n', '7'],
      ['tail', '-n', '20'],
      ['tail', '-n', '+109990'],
      ['lines', '1000', '1010'],
      ['grep', '-c', 'ERROR'],
      ['grep', '-n', '-m', '5', '-C', '2', 'ERROR'],
      ['grep', '-i', 'disk FULL'],
      ['count'],
      ['stat'],
    ]) {
      const remote = await runCli([...args, url]);
      const local = await runCli([...args, path]);
      expect(remote.stderr, args.join(' ')).toBe('');
      expect(remote.status, args.join(' ')).toBe(local.status);
      expect(remote.stdout.equals(local.stdout), args.join(' ')).toBe(true);
    }
  });

  it('reads a block or two for head, tail and lines, never the whole body', async () => {
    const path = await tempFile(log, 'service.log');
    const size = (await readFile(path)).length;
    for (const args of [
      ['head', '-n', '20'],
      ['tail', '-n', '20'],
      ['lines', '100', '120'],
    ]) {
      const server = await startServer(serveFiles(path));
      const result = await runCli([...args, urlOf(server, path)]);
      expect(result.status).toBe(0);
      expect(server.requests.length, args.join(' ')).toBeLessThanOrEqual(3);
      expect(server.bytesSent(), args.join(' ')).toBeLessThan(size / 10);
    }
  });

  it('fails with one line naming the URL without its query string', async () => {
    const path = await tempFile('x\n');
    const server = await startServer(serveFiles(path));
    const result = await runCli(['tail', `${server.origin}/missing.log?X-Amz-Signature=secret`]);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(`spoolforge: ${server.origin}/missing.log: 404 Not Found\n`);
    // A port nothing listens on: refused, retried with backoff, then given up.
    const closed = await startServer(() => undefined);
    await closed.close();
    const refused = await runCli(['count', `${closed.origin}/log`]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toBe(
      `spoolforge: ${closed.origin}/log: network error (ECONNREFUSED) (after 5 attempts)\n`,
    );
  });

  it('gives up on a server that never answers after --timeout and --retries, on every command', async () => {
    // Accepts the connection and never answers: without a timeout, 5 attempts of 30 s.
    const silent = await startServer(() => undefined);
    const url = `${silent.origin}/never.log`;
    const given = `spoolforge: ${url}: no data for 500 ms (after 1 attempts)\n`;
    for (const command of [
      ['head'],
      ['tail'],
      ['lines', '1', '2'],
      ['grep', 'x'],
      ['count'],
      ['stat'],
    ]) {
      const result = await runCli([...command, '--timeout', '0.5', '--retries', '0', url]);
      expect(result.status, command[0]).toBe(2);
      expect(result.stderr, command[0]).toBe(given);
    }
    const saved = { ...process.env };
    try {
      process.env.SPOOLFORGE_HTTP_TIMEOUT = '0.3';
      process.env.SPOOLFORGE_HTTP_RETRIES = '1';
      const fromEnvironment = await runCli(['tail', url]);
      expect(fromEnvironment.stderr).toBe(
        `spoolforge: ${url}: no data for 300 ms (after 2 attempts)\n`,
      );
      // The option wins over the environment.
      const overridden = await runCli(['tail', '--retries=0', url]);
      expect(overridden.stderr).toBe(`spoolforge: ${url}: no data for 300 ms (after 1 attempts)\n`);
    } finally {
      process.env = saved;
    }
    const invalid = await runCli(['head', '--timeout', 'soon', url]);
    expect(invalid.status).toBe(2);
    expect(invalid.stderr).toBe("spoolforge: invalid timeout: 'soon' (seconds, more than 0)\n");
  }, 60_000);
});
