// A file server's error answers quote at most 200 characters of a path or URL the model sent,
// then its length: a 100,000-character path gave a 200 KB answer (the path, then Node's message
// quoting it again).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../helpers/http-servers.js';
import { connectFileServer } from './file-server-helpers.js';

let root: string;
const long = 'a'.repeat(100_000);

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'spoolforge-long-input-'));
  await writeFile(join(root, 'app.log'), 'inside\n');
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('file server long input', () => {
  it('quotes 200 characters of a long path or URL in every error answer, then its length', async () => {
    const web = await startServer((_request, response) => {
      response.writeHead(404).end();
    });
    const server = await connectFileServer({
      roots: [root],
      allowUrls: [`${web.origin}/logs/`],
      http: { retries: 0 },
    });
    const calls: [string, Record<string, unknown>][] = [
      ['file_read', { path: long }],
      ['file_grep', { path: long, pattern: 'x' }],
      ['file_stat', { path: `/outside/${long}` }],
      ['file_list', { path: long }],
      ['file_read', { path: `https://example.com/${long}` }],
      ['file_list', { path: `${web.origin}/logs/${long}` }],
    ];
    for (const [name, args] of calls) {
      const answer = await server.error(name, args);
      expect(answer.length).toBeLessThan(600);
      expect(answer).toContain(`${'a'.repeat(100)}… (${String(args.path).length} characters)`);
    }
    // A URL under a prefix reaches the server; what the HTTP reader's error quotes is cut too.
    const remote = await server.error('file_read', { path: `${web.origin}/logs/${long}` });
    expect(remote).toMatch(/^Error \(E_REMOTE_/);
    expect(remote.length).toBeLessThanOrEqual(2_000 + ' (100000 characters)'.length + 10);
  });
});
