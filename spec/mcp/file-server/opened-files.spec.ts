// A file server keeps the files it opened for the next query (at most `openFiles`, closed with
// the server), shares the CLI's line index cache for large files, and answers for a file as it
// is now: a grown log's new lines, a replaced file's new content.
import {
  appendFile,
  mkdtemp,
  readdir,
  readlink,
  rename,
  rm,
  stat,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectFileServer } from './file-server-helpers.js';

let root: string;
/** Lines of the large log: 20 MiB and more, past the size whose index the cache keeps. */
const largeLines = 600_000;
const line = (number: number) =>
  `2026-11-24T10:00:00Z request ${String(number).padStart(7, '0')} ok\n`;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'spoolforge-opened-files-'));
  await writeFile(
    join(root, 'large.log'),
    Array.from({ length: largeLines }, (_, index) => line(index + 1)).join(''),
  );
  for (const name of ['a', 'b', 'c', 'd', 'e'])
    await writeFile(join(root, `${name}.log`), `${name}\n`);
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** The files under the root this process holds open, by their descriptors. */
async function openUnderRoot(): Promise<string[]> {
  const descriptors = await readdir('/proc/self/fd');
  const targets = await Promise.all(
    descriptors.map((descriptor) => readlink(`/proc/self/fd/${descriptor}`).catch(() => '')),
  );
  return targets.filter((target) => target.startsWith(`${root}/`)).sort();
}

describe.runIf(process.platform === 'linux')('file server opened files', () => {
  it('keeps at most openFiles files open between queries, and closes them with the server', async () => {
    const server = await connectFileServer({ roots: [root], openFiles: 2 });
    for (const name of ['a', 'b', 'c', 'd', 'e']) {
      expect(await server.text('file_read', { path: `${name}.log` })).toBe(
        `lines 1–1 of 1:\n1:${name}\n`,
      );
    }
    expect(await openUnderRoot()).toEqual([join(root, 'd.log'), join(root, 'e.log')]);
    // Used again: kept, and the least recently used one goes.
    await server.text('file_stat', { path: 'd.log' });
    await server.text('file_stat', { path: 'a.log' });
    expect(await openUnderRoot()).toEqual([join(root, 'a.log'), join(root, 'd.log')]);
    await server.client.close();
    await expect.poll(openUnderRoot).toEqual([]);
  });

  it('closes, with its files, when its signal aborts', async () => {
    const controller = new AbortController();
    const server = await connectFileServer({ roots: [root], signal: controller.signal });
    await server.text('file_stat', { path: 'a.log' });
    expect(await openUnderRoot()).toEqual([join(root, 'a.log')]);
    controller.abort();
    await expect.poll(openUnderRoot).toEqual([]);
    await expect(server.call('file_stat', { path: 'a.log' })).rejects.toThrow('Not connected');
  });
});

describe('file server line indexes', () => {
  it("saves a large file's line index in the CLI's cache, and answers for lines appended since", async () => {
    const path = join(root, 'large.log');
    const server = await connectFileServer({ roots: [root] });
    expect(JSON.parse(await server.text('file_stat', { path: 'large.log' })).lines).toBe(
      largeLines,
    );
    const { dev, ino } = await stat(path);
    const cache = join(process.env.SPOOLFORGE_CACHE_DIR ?? '', 'line-index');
    expect(await readdir(cache)).toContain(`${dev}-${ino}.index`);
    expect(
      await server.text('file_read', { path: 'large.log', start: 444_444, end: 444_444 }),
    ).toBe(`lines 444444–444444 of ${largeLines}:\n444444:${line(444_444)}`);
    await appendFile(path, `${line(largeLines + 1)}${line(largeLines + 2)}`);
    expect(await server.text('file_read', { path: 'large.log', last: 2 })).toBe(
      `lines ${largeLines + 1}–${largeLines + 2} of ${largeLines + 2}:\n${largeLines + 1}:${line(largeLines + 1)}${largeLines + 2}:${line(largeLines + 2)}`,
    );
    expect(
      await server.text('file_grep', {
        path: 'large.log',
        pattern: `${largeLines + 2}`,
        fixed: true,
      }),
    ).toBe(`${largeLines + 2}:${line(largeLines + 2)}1 matching line.\n`);
  });

  it('a file replaced under the same path is read anew', async () => {
    const server = await connectFileServer({ roots: [root] });
    await writeFile(join(root, 'rotated.log'), 'old 1\nold 2\n');
    expect(await server.text('file_read', { path: 'rotated.log' })).toBe(
      'lines 1–2 of 2:\n1:old 1\n2:old 2\n',
    );
    await writeFile(join(root, 'rotated.log.new'), 'new\n');
    await rename(join(root, 'rotated.log.new'), join(root, 'rotated.log'));
    expect(await server.text('file_read', { path: 'rotated.log' })).toBe(
      'lines 1–1 of 1:\n1:new\n',
    );
    await appendFile(join(root, 'rotated.log'), 'more\n');
    expect(JSON.parse(await server.text('file_stat', { path: 'rotated.log' }))).toEqual({
      bytes: 9,
      lines: 2,
      kind: 'text',
    });
  });
});
