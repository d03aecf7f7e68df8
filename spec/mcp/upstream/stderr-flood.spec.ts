// An upstream that floods stderr while nobody reads the proxy's: the proxy must not hold it all.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { writeLineServer } from '../../helpers/line-mcp-server.js';
import { cliPath } from '../../helpers/run-cli.js';
import { tempDirectory } from '../../helpers/temp-files.js';
import { initialize } from '../listen/http-post.js';

const mebibyte = 1024 * 1024;
const floodMebibytes = 520;
const stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

/** The resident memory of process `pid` in bytes (VmRSS). */
async function residentBytes(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) * 1024;
}

describe('upstream stderr', () => {
  it(`holds at most a bound of ${floodMebibytes} MiB of stderr nobody reads, and says how much it dropped`, async () => {
    const directory = await tempDirectory();
    const done = join(directory, 'flood-done');
    // At tools/list, the server writes the flood on stderr as fast as its pipe takes it.
    const server = await writeLineServer(`
      answer({ tools: [] });
      const chunk = Buffer.alloc(${mebibyte}, 0x65);
      let sent = 0;
      const more = () => {
        while (sent < ${floodMebibytes}) {
          sent++;
          if (!process.stderr.write(chunk)) return process.stderr.once('drain', more);
        }
        import('node:fs').then((fs) => fs.writeFileSync(${JSON.stringify(done)}, String(sent)));
      };
      more();
    `);
    const proxy = spawn(
      process.execPath,
      [cliPath, 'mcp', '--store', join(directory, 'store'), '--', process.execPath, server],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    stops.push(() => proxy.kill('SIGKILL'));
    proxy.stderr.pause(); // nobody reads the proxy's stderr for now
    const send = (message: object) => proxy.stdin.write(`${JSON.stringify(message)}\n`);
    const initialized = new Promise((resolve) => proxy.stdout.once('data', resolve));
    send(initialize);
    await initialized;
    proxy.stdout.resume();
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });

    let peak = 0;
    for (let waited = 0; !existsSync(done) && waited < 300; waited++) {
      peak = Math.max(peak, await residentBytes(proxy.pid as number));
      await sleep(200);
    }
    peak = Math.max(peak, await residentBytes(proxy.pid as number));
    expect(Number(await readFile(done, 'utf8'))).toBe(floodMebibytes);
    expect(peak).toBeLessThan(200 * mebibyte);

    // Read at last: what was dropped is counted in a line.
    let stderr = '';
    proxy.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('latin1').replace(/e{1000,}/g, '');
    });
    proxy.stderr.resume();
    for (let waited = 0; !/dropped \d+ bytes/.test(stderr) && waited < 100; waited++) {
      await sleep(100);
    }
    expect(stderr).toMatch(/spoolforge: dropped \d+ bytes \(.*\) of upstream stderr/);
  }, 120_000);
});
