import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';

/**
 * A file server on 127.0.0.1 for the remote bench, and what it sent since the last `reset()`:
 * requests and body bytes, as an object store would bill them.
 */
export interface CountingServer {
  url: string;
  /** Which server: `nginx` (a C server, as users front logs with) or `send` (Node, in-process). */
  name: string;
  counters(): Promise<{ requests: number; bytes: number }>;
  reset(): Promise<void>;
  close(): Promise<void>;
}

/**
 * nginx serving `path` from a private prefix on a free port, counting from its access log; or
 * `undefined` when no `nginx` is installed. A server in a process of its own, written in C, does
 * not take the bench process's CPU as an in-process Node server does.
 */
export async function startNginx(path: string): Promise<CountingServer | undefined> {
  if (spawnSync('nginx', ['-v']).error) return undefined;
  const prefix = await mkdtemp(join(tmpdir(), 'spoolforge-remote-nginx-'));
  const port = await freePort();
  const accessLog = join(prefix, 'access.log');
  const config = join(prefix, 'nginx.conf');
  await writeFile(
    config,
    `worker_processes 1;
daemon on;
pid ${join(prefix, 'nginx.pid')};
error_log ${join(prefix, 'error.log')};
events { worker_connections 256; }
http {
  log_format counted '$status $body_bytes_sent';
  access_log ${accessLog} counted;
  sendfile on;
  client_body_temp_path ${prefix};
  proxy_temp_path ${prefix};
  fastcgi_temp_path ${prefix};
  uwsgi_temp_path ${prefix};
  scgi_temp_path ${prefix};
  server { listen 127.0.0.1:${port}; root ${dirname(path)}; }
}
`,
  );
  const started = spawnSync('nginx', ['-p', prefix, '-c', config], { encoding: 'utf8' });
  if (started.status !== 0) throw new Error(`nginx did not start: ${started.stderr}`);
  const counters = async () => {
    const lines = (await readFile(accessLog, 'utf8').catch(() => '')).split('\n').filter(Boolean);
    return {
      requests: lines.length,
      bytes: lines.reduce((sum, line) => sum + Number(line.split(' ')[1] ?? 0), 0),
    };
  };
  return {
    url: `http://127.0.0.1:${port}/${basename(path)}`,
    name: 'nginx',
    counters,
    // nginx writes its log line when a request ends: truncating between runs starts the count.
    reset: () => writeFile(accessLog, ''),
    close: async () => {
      spawnSync('nginx', ['-p', prefix, '-c', config, '-s', 'stop']);
      await rm(prefix, { recursive: true, force: true });
    },
  };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}
