// A file server reads only under its roots and allowed URL prefixes: no escape by `..`, by an
// absolute path, by a link pointing out or by a linked parent directory; URLs compared parsed
// (origin and whole path segments), read with Range requests from a real server on 127.0.0.1.
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveFiles, startServer } from '../../helpers/http-servers.js';
import { connectFileServer } from './file-server-helpers.js';

let base: string;
let root: string;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'spoolforge-confinement-'));
  root = join(base, 'root');
  await mkdir(join(root, 'sub'), { recursive: true });
  await mkdir(join(base, 'outdir'));
  // Its name starts with the root's: a string prefix test would let it through.
  await mkdir(join(base, 'root-sibling'));
  await writeFile(join(base, 'root-sibling', 'other.log'), 'beside\n');
  await writeFile(join(root, 'app.log'), 'inside\n');
  await writeFile(join(root, 'sub', 'deep.log'), 'deep inside\n');
  await writeFile(join(base, 'secret.txt'), 'outside\n');
  await writeFile(join(base, 'outdir', 'secret.txt'), 'outside too\n');
  await symlink(join(base, 'secret.txt'), join(root, 'link-out'));
  await symlink(join(base, 'outdir'), join(root, 'linked-dir'));
  await symlink(join(root, 'sub', 'deep.log'), join(root, 'link-in'));
  await symlink(root, join(base, 'root-link'));
  await symlink(join(base, 'loop'), join(base, 'loop'));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const refused = (path: string, roots: string) =>
  `Error (E_PATH_NOT_ALLOWED): ${JSON.stringify(path)} is not under the roots this server reads: ${roots}`;

describe('file server confinement', () => {
  it('refuses .., an absolute path outside, a link out and a linked parent, naming the roots', async () => {
    const server = await connectFileServer({ roots: [root] });
    for (const path of [
      '../secret.txt',
      'sub/../../secret.txt',
      join(base, 'secret.txt'),
      `${root}/../secret.txt`,
      'link-out',
      'linked-dir/secret.txt',
      '/etc/passwd',
      '../root-sibling/other.log',
      join(base, 'root-sibling', 'other.log'),
    ]) {
      expect(await server.error('file_read', { path })).toBe(refused(path, root));
      expect(await server.error('file_stat', { path })).toBe(refused(path, root));
    }
    expect(await server.error('file_grep', { path: 'link-out', pattern: 'o' })).toBe(
      refused('link-out', root),
    );
    expect(await server.error('file_list', { path: 'linked-dir' })).toBe(
      refused('linked-dir', root),
    );
    expect(await server.error('file_list', { path: '..' })).toBe(refused('..', root));
  });

  it('says nothing of whether a path outside exists; a missing one inside is not found', async () => {
    const server = await connectFileServer({ roots: [root] });
    expect(await server.error('file_read', { path: '../no-such.txt' })).toBe(
      refused('../no-such.txt', root),
    );
    expect(await server.error('file_read', { path: 'linked-dir/no-such.txt' })).toBe(
      refused('linked-dir/no-such.txt', root),
    );
    // Other failures outside (a link loop, a file taken for a directory) say no more.
    for (const path of ['../loop', '../secret.txt/x', join(base, 'loop', 'x')]) {
      expect(await server.error('file_read', { path })).toBe(refused(path, root));
    }
    expect(await server.error('file_read', { path: 'sub/no-such.log' })).toBe(
      'Error (E_FILE_NOT_FOUND): sub/no-such.log: No such file or directory',
    );
  });

  it('reads through .. and links that stay inside; file_list shows where links lead', async () => {
    const server = await connectFileServer({ roots: [root] });
    expect(await server.text('file_read', { path: 'sub/../app.log' })).toBe(
      'lines 1–1 of 1:\n1:inside\n',
    );
    expect(await server.text('file_read', { path: 'link-in' })).toBe(
      'lines 1–1 of 1:\n1:deep inside\n',
    );
    const listing = (await server.text('file_list', { path: root })).split('\n');
    const linkIn = listing.find((row) => row.startsWith('link-in'));
    expect(
      linkIn?.startsWith(`link-in -> ${join(root, 'sub', 'deep.log')}  12 (12 B)  modified `),
    ).toBe(true);
    expect(listing).toContain('link-out -> (outside the roots)');
    expect(listing).toContain('linked-dir -> (outside the roots)');
    expect(listing).toContain('sub/');
  });

  it('a root that is itself a link works, by its own path and by the real one', async () => {
    const linked = join(base, 'root-link');
    const server = await connectFileServer({ roots: [linked] });
    expect(await server.text('file_read', { path: 'app.log' })).toBe('lines 1–1 of 1:\n1:inside\n');
    expect(await server.text('file_read', { path: join(linked, 'sub', 'deep.log') })).toBe(
      'lines 1–1 of 1:\n1:deep inside\n',
    );
    expect(await server.text('file_read', { path: join(root, 'app.log') })).toBe(
      'lines 1–1 of 1:\n1:inside\n',
    );
    expect(await server.error('file_read', { path: '../secret.txt' })).toBe(
      refused('../secret.txt', linked),
    );
  });

  it('a root that does not exist fails at creation', async () => {
    await expect(connectFileServer({ roots: [join(base, 'missing')] })).rejects.toMatchObject({
      code: 'E_FILE_NOT_FOUND',
    });
    await expect(connectFileServer({ roots: [join(root, 'app.log')] })).rejects.toMatchObject({
      code: 'E_INVALID_ARGUMENT',
    });
    await expect(connectFileServer({ roots: [] })).rejects.toMatchObject({
      code: 'E_INVALID_ARGUMENT',
    });
  });
});

describe('file server URLs', () => {
  let web: string;
  beforeAll(async () => {
    web = join(base, 'web');
    await mkdir(join(web, 'logs'), { recursive: true });
    const log = Array.from(
      { length: 50_000 },
      (_, line) => `line ${line + 1}${line === 41_999 ? ' ERROR' : ''}\n`,
    );
    await writeFile(join(web, 'logs', 'ci.log'), log.join(''));
    await writeFile(join(web, 'logs', 'report.json'), JSON.stringify({ failed: ['a', 'b'] }));
    await writeFile(join(web, 'private.log'), 'private\n');
  });

  it('reads a URL under a prefix with Range requests: every query tool answers', async () => {
    const server = await startServer(serveFiles(join(web, 'index')));
    const client = await connectFileServer({ roots: [], allowUrls: [`${server.origin}/logs/`] });
    const url = `${server.origin}/logs/ci.log`;
    expect(await client.text('file_read', { path: url, start: 2, end: 3 })).toBe(
      'lines 2–3 of 50000:\n2:line 2\n3:line 3\n',
    );
    expect(await client.text('file_grep', { path: url, pattern: 'ERROR' })).toBe(
      '42000:line 42000 ERROR\n1 matching line.\n',
    );
    expect(JSON.parse(await client.text('file_stat', { path: url }))).toMatchObject({
      lines: 50_000,
      kind: 'text',
    });
    expect(
      await client.text('file_json', {
        path: `${server.origin}/logs/report.json`,
        op: 'length',
        jsonPath: '$.failed',
      }),
    ).toContain('2');
    expect(server.requests.some((request) => request.range !== undefined)).toBe(true);
  });

  it('refuses other origins, paths outside the prefix by segment or by .., and other schemes', async () => {
    const server = await startServer(serveFiles(join(web, 'index')));
    const prefix = `${server.origin}/logs`;
    const client = await connectFileServer({ roots: [root], allowUrls: [prefix] });
    const port = new URL(server.origin).port;
    for (const url of [
      `${server.origin}/private.log`,
      `${server.origin}/logs/../private.log`,
      `${server.origin}/logs/%2e%2e/private.log`,
      `${server.origin}/logs-old/ci.log`,
      `http://127.0.0.1.evil.test:${port}/logs/ci.log`,
      `http://localhost:${port}/logs/ci.log`,
      `https://127.0.0.1:${port}/logs/ci.log`,
      `http://user:pass@127.0.0.1:${port}/logs/ci.log`,
      'file:///etc/passwd',
    ]) {
      expect(await client.error('file_read', { path: url })).toBe(
        `Error (E_PATH_NOT_ALLOWED): ${JSON.stringify(url)} is not under the URL prefixes this server reads: ${prefix}`,
      );
    }
    expect(server.requests).toEqual([]);
    expect(await client.text('file_read', { path: `${prefix}/ci.log`, end: 1 })).toBe(
      'lines 1–1 of 50000:\n1:line 1\n',
    );
    expect(await client.error('file_read', { path: `${prefix}/missing.log` })).toMatch(
      /^Error \(E_REMOTE_NOT_FOUND\)/,
    );
    expect(await client.error('file_list', { path: `${prefix}/` })).toContain(
      'a URL has no entries to list',
    );
  });

  it('follows a redirect only to a URL under a prefix', async () => {
    const files = serveFiles(join(web, 'index'));
    const server = await startServer((request, response) => {
      const to = { '/logs/moved.log': '/logs/ci.log', '/logs/escape.log': '/private.log' }[
        request.url ?? ''
      ];
      if (to === undefined) return files(request, response);
      response.writeHead(302, { location: to }).end();
    });
    const client = await connectFileServer({ roots: [], allowUrls: [`${server.origin}/logs/`] });
    expect(
      await client.text('file_read', { path: `${server.origin}/logs/moved.log`, end: 1 }),
    ).toBe('lines 1–1 of 50000:\n1:line 1\n');
    expect(await client.error('file_read', { path: `${server.origin}/logs/escape.log` })).toBe(
      `Error (E_PATH_NOT_ALLOWED): "${server.origin}/private.log" is not under the URL prefixes this server reads: ${server.origin}/logs/`,
    );
    expect(server.requests.map((request) => request.url)).not.toContain('/private.log');
  });

  it('refuses encoded separators and redirects to them: a server that decodes first serves /secret', async () => {
    const server = await startServer((request, response) => {
      // Decodes, then normalises: /logs/..%2fsecret is /secret here.
      const path = posix.normalize(decodeURIComponent(request.url ?? '').replaceAll('\\', '/'));
      if (path === '/logs/hop') {
        response.writeHead(302, { location: '/logs/..%2fsecret' }).end();
      } else if (path === '/logs/signed') {
        response.writeHead(302, { location: '/secret?X-Amz-Signature=s3cr3t' }).end();
      } else if (path === '/secret' || path.startsWith('/logs/')) {
        response.end(path === '/secret' ? 'TOP SECRET\n' : 'log line\n');
      } else response.writeHead(404).end();
    });
    const prefix = `${server.origin}/logs/`;
    const client = await connectFileServer({ roots: [], allowUrls: [prefix] });
    const refusal = (url: string) =>
      `Error (E_PATH_NOT_ALLOWED): ${JSON.stringify(url)} is not under the URL prefixes this server reads: ${prefix}`;
    for (const tail of [
      '..%2fsecret',
      '..%5csecret',
      '..%2Fsecret',
      '..%5Csecret',
      '%2e%2e%2fsecret',
    ]) {
      const url = `${prefix}${tail}`;
      expect(await client.error('file_read', { path: url })).toBe(refusal(url));
    }
    expect(server.requests).toEqual([]);
    // An in-prefix redirect to the same escape is refused before it is followed.
    expect(await client.error('file_read', { path: `${prefix}hop` })).toBe(
      refusal(`${prefix}..%2fsecret`),
    );
    // One out of the prefix is refused without its query, which may carry a signature.
    expect(await client.error('file_read', { path: `${prefix}signed` })).toBe(
      refusal(`${server.origin}/secret`),
    );
    expect(server.requests.map((request) => request.url)).toEqual(['/logs/hop', '/logs/signed']);
    expect(await client.text('file_read', { path: `${prefix}app.log` })).toBe(
      'lines 1–1 of 1:\n1:log line\n',
    );
    await expect(
      connectFileServer({ roots: [], allowUrls: [`${server.origin}/a%2fb/`] }),
    ).rejects.toMatchObject({ code: 'E_INVALID_ARGUMENT' });
  });

  it('a server without URL prefixes refuses every URL; a bad prefix fails at creation', async () => {
    const client = await connectFileServer({ roots: [root] });
    expect(await client.error('file_read', { path: 'https://example.com/a.log' })).toBe(
      'Error (E_PATH_NOT_ALLOWED): "https://example.com/a.log" is not under the URL prefixes this server reads: none',
    );
    await expect(
      connectFileServer({ roots: [root], allowUrls: ['ftp://example.com/'] }),
    ).rejects.toMatchObject({
      code: 'E_INVALID_ARGUMENT',
    });
  });
});
