import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import {
  patternBytes,
  patternServer,
  rangeStart,
  serveFiles,
  startServer,
  urlOf,
} from '../helpers/http-servers.js';
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

  it('never shows the password or the query string of the URL', async () => {
    const closed = await startServer(() => undefined);
    await closed.close();
    const missing = await startServer((_request, response) => response.writeHead(404).end());
    const broken = await startServer((_request, response) => response.writeHead(500).end());
    for (const { origin, why } of [
      { origin: closed.origin, why: /^network error \(ECONNREFUSED\) \(after 5 attempts\)$/ },
      { origin: missing.origin, why: /^404 Not Found$/ },
      { origin: broken.origin, why: /^500 Internal Server Error \(after 5 attempts\)$/ },
      // A name that never resolves (RFC 6761); without a resolver, EAI_AGAIN, retried.
      {
        origin: 'http://spoolforge-nowhere.invalid',
        why: /^(ENOTFOUND|network error \(EAI_AGAIN\) \(after 5 attempts\))$/,
      },
    ]) {
      const url = `${origin.replace('://', '://alice:hunter2-PW@')}/log?X-Amz-Signature=S3cr3tSig`;
      const result = await runCli(['head', url]);
      expect(result.status).toBe(2);
      const prefix = `spoolforge: ${origin}/log: `;
      expect(result.stderr.startsWith(prefix), result.stderr).toBe(true);
      expect(result.stderr.slice(prefix.length).trimEnd()).toMatch(why);
      expect(result.stderr.endsWith('\n')).toBe(true);
    }
  });

  it('never shows the Basic credential it sends, when a server echoes it', async () => {
    const server = await startServer((request, response) => {
      const said = `${request.headers.authorization} (${request.url})`;
      response.writeHead(403, `Denied for ${said}`).end(said);
    });
    for (const [userInfo, hidden] of [
      ['alice:hunter2-PW', ['hunter2-PW', 'alice:hunter2-PW']],
      ['ghp_SECRETTOKEN', ['ghp_SECRETTOKEN']],
    ] as const) {
      const url = `${server.origin.replace('://', `://${userInfo}@`)}/log?X-Amz-Signature=S3cr3tSig`;
      const result = await runCli(['head', url]);
      expect(result.status).toBe(2);
      expect(result.stderr).toBe(
        `spoolforge: ${server.origin}/log: 403 Denied for … (/log?X-Amz-Signature=…) (check the credentials; a presigned URL may have expired)\n`,
      );
      const basic = Buffer.from(userInfo.includes(':') ? userInfo : `${userInfo}:`).toString(
        'base64',
      );
      for (const secret of [...hidden, basic]) expect(result.stderr).not.toContain(secret);
    }
  });

  it('reads only what head and tail need from a server that sends far more than asked', async () => {
    const claimed = 256 * 1024 * 1024;
    const server = await patternServer((request) => {
      const from = rangeStart(request);
      return {
        status: 206,
        headers: { 'content-range': `bytes ${from}-${claimed - 1}/${claimed}` },
        from,
        length: claimed - from,
      };
    });
    const head = await runCli(['head', '-n', '3', `${server.origin}/huge.log`]);
    expect(head.stderr).toBe('');
    expect(head.stdout).toEqual(patternBytes(0, 3 * 64));
    const tail = await runCli(['tail', '-n', '2', `${server.origin}/huge.log`]);
    expect(tail.stdout).toEqual(patternBytes(claimed - 2 * 64, claimed));
    await server.settled();
    expect(server.bytesSent()).toBeLessThan(32 * 1024 * 1024);
  });

  it('streams head from a server that answers a Range request with a huge whole body, refuses tail', async () => {
    const server = await patternServer(() => ({
      status: 200,
      headers: {},
      from: 0,
      length: 256 * 1024 * 1024,
    }));
    const head = await runCli(['head', '-n', '3', `${server.origin}/huge.log`]);
    expect(head.stderr).toBe('');
    expect(head.status).toBe(0);
    expect(head.stdout.equals(patternBytes(0, 3 * 64))).toBe(true);
    const tail = await runCli(['tail', '-n', '3', `${server.origin}/huge.log`]);
    expect(tail.status).toBe(2);
    expect(tail.stderr).toMatch(/ignores Range requests.*curl -s URL \| spoolforge tail -/);
    await server.settled();
    expect(server.bytesSent()).toBeLessThan(16 * 1024 * 1024);
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
