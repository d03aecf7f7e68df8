import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';

/** Where Debian's `postgresql` package puts each major version's binaries. */
const debianRoot = '/usr/lib/postgresql';

/**
 * A throwaway PostgreSQL server: `initdb` in a temporary directory, listening only on a Unix
 * socket in that directory (no TCP port to collide with), trust authentication.
 */
export interface PostgresServer {
  /** The socket directory: pg's `host` for a Unix socket. */
  host: string;
  user: string;
  database: string;
  /** A `pg.PoolConfig` for it (JSON, so a child process can take it too). */
  config: { host: string; user: string; database: string };
  /** Stops the server and removes its directory. */
  stop(): void;
}

/** The bin directory of the newest PostgreSQL installed, or `undefined` when there is none. */
export function postgresBin(): string | undefined {
  if (!existsSync(debianRoot)) return undefined;
  const newest = readdirSync(debianRoot)
    .filter((name) => /^\d+$/.test(name) && existsSync(join(debianRoot, name, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a))[0];
  return newest === undefined ? undefined : join(debianRoot, newest, 'bin');
}

/**
 * Starts a server. `initdb` refuses to run as root: as root, the server runs as the `postgres`
 * system user (which Debian's package creates), and the directory is handed over to it.
 */
export function startPostgres(): PostgresServer {
  const bin = postgresBin();
  if (!bin) throw new Error(`No PostgreSQL under ${debianRoot}: apt-get install postgresql`);
  const directory = mkdtempSync(join(tmpdir(), 'spoolforge-pg-'));
  const asServerUser: string[] = [];
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(directory, uid, gid);
    asServerUser.push('runuser', '-u', 'postgres', '--');
  }
  const run = (command: string, args: string[]) => {
    const [program = command, ...rest] = [...asServerUser, join(bin, command), ...args];
    execFileSync(program, rest, { cwd: directory, stdio: ['ignore', 'pipe', 'pipe'] });
  };
  const data = join(directory, 'data');
  const user = 'postgres';
  try {
    run('initdb', ['-D', data, '-U', user, '--auth=trust', '-E', 'UTF8', '--no-sync']);
    // No TCP, no fsync (a spec's data need not survive a power cut), the socket beside the data.
    const serverOptions = `-c listen_addresses= -k ${directory} -F -c max_connections=50`;
    run('pg_ctl', ['start', '-D', data, '-w', '-l', join(directory, 'log'), '-o', serverOptions]);
  } catch (error) {
    rmSync(directory, { recursive: true, force: true });
    throw error;
  }
  const config = { host: directory, user, database: 'postgres' };
  return {
    ...config,
    config,
    stop() {
      try {
        run('pg_ctl', ['stop', '-D', data, '-m', 'immediate', '-w']);
      } finally {
        rmSync(directory, { recursive: true, force: true });
      }
    },
  };
}

/**
 * A server and a pool on it for the specs of one file: started before them, stopped after. Read
 * its fields inside the specs (they are set once `beforeAll` ran). Without PostgreSQL installed,
 * `available` is false (skip the specs with it) and a warning says so.
 */
export function usePostgres(file: string): {
  readonly available: boolean;
  readonly server: PostgresServer;
  readonly pool: pg.Pool;
} {
  const available = postgresBin() !== undefined;
  const context = { available } as { available: boolean; server: PostgresServer; pool: pg.Pool };
  if (!available) {
    console.warn(
      `${file}: no PostgreSQL under ${debianRoot} (apt-get install postgresql); skipped`,
    );
    return context;
  }
  beforeAll(() => {
    context.server = startPostgres();
    context.pool = new pg.Pool(context.server.config);
  });
  afterAll(async () => {
    await context.pool?.end();
    context.server?.stop();
  });
  return context;
}

/** Pages (queries) and rows `readBackward` fetched. */
export interface ReadCounts {
  pages: number;
  rows: number;
}

/**
 * A real pool that counts the pages (`SELECT seq …` queries) and rows `readBackward` fetched
 * through it, into `reads` (pass one object to several pools to add them up).
 */
export function countingPool(
  config: string | pg.PoolConfig,
  reads: ReadCounts = { pages: 0, rows: 0 },
): { pool: pg.Pool; reads: ReadCounts } {
  const pool = new pg.Pool(typeof config === 'string' ? { connectionString: config } : config);
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<pg.QueryResult>;
  pool.query = (async (...args: unknown[]) => {
    const result = await query(...args);
    if (typeof args[0] === 'string' && args[0].startsWith('SELECT seq')) {
      reads.pages++;
      reads.rows += result.rows.length;
    }
    return result;
  }) as typeof pool.query;
  return { pool, reads };
}
