// A file server checks what it opened, not the path it resolved: a writer under a root that
// swaps a file, or a directory, for a link out (or for a FIFO) while the model reads it in a
// loop never gets an outside byte out, nor a thread stuck on a FIFO. Real races: a child process
// renames links, hard links and directories into place as fast as it can.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { constants } from 'node:fs';
import { mkdir, mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectFileServer, type FileServerClient, textOf } from './file-server-helpers.js';

let base: string;
let root: string;
const swappers: ChildProcess[] = [];

/** Reads of the swapped path per race: the unfixed server leaked about 1 in 100. */
const reads = 800;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'spoolforge-swap-races-'));
  root = join(base, 'root');
  await mkdir(join(root, 'real-dir'), { recursive: true });
  await mkdir(join(base, 'out-dir'));
  await writeFile(join(root, 'inside.log'), 'inside\n');
  await writeFile(join(root, 'real-dir', 'file.log'), 'inside\n');
  await writeFile(join(base, 'secret.log'), 'OUTSIDE SECRET\n');
  await writeFile(join(base, 'out-dir', 'file.log'), 'OUTSIDE SECRET\n');
  await writeFile(join(base, 'out-dir', 'outside-only.log'), 'OUTSIDE SECRET\n');
  execFileSync('mkfifo', [join(root, 'pipe')]);
});

afterEach(async () => {
  await releaseFifoReaders(join(root, 'pipe'));
  await Promise.all(
    swappers.splice(0).map(
      (child) =>
        new Promise((resolve) => {
          child.once('exit', resolve);
          child.kill();
        }),
    ),
  );
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/**
 * Starts a child that runs `loop` (a function body over `fs`, `ok` and `hold`, swallowing the races'
 * own failures) until killed; resolves once it has swapped at least once.
 */
async function swapper(loop: string): Promise<void> {
  const script = `
    const fs = require('node:fs');
    const ok = (step) => { try { step(); } catch {} };
    // Keeps a state for half a millisecond, so reads meet it on a loaded machine too.
    const hold = () => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 0.5);
    process.chdir(${JSON.stringify(root)});
    let first = true;
    for (;;) { ${loop}; if (first) { first = false; process.stdout.write('swapping\\n'); } }
  `;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  swappers.push(child);
  await new Promise((resolve) => child.stdout?.once('data', resolve));
}

/** Reads `path` with file_read and file_grep in turn; counts answers by what they show. */
async function readInLoop(server: FileServerClient, path: string) {
  const seen = { outside: 0, inside: 0, refused: 0 };
  // Past `reads`, on until the race has met the inside file too (a loaded machine may swap it
  // back too fast for `reads` alone), at most eight times as many.
  for (let index = 0; index < reads || (seen.inside === 0 && index < reads * 8); index++) {
    const call =
      index % 2 === 0
        ? server.call('file_read', { path })
        : server.call('file_grep', { path, pattern: 'SECRET|inside' });
    const text = textOf(await call);
    if (text.includes('OUTSIDE')) seen.outside++;
    else if (text.includes('inside')) seen.inside++;
    else seen.refused++;
  }
  return seen;
}

describe.runIf(process.platform === 'linux')('file server swap races', () => {
  it('a file swapped for a link out is never read through the link', async () => {
    const server = await connectFileServer({ roots: [root] });
    await swapper(`
      ok(() => fs.symlinkSync(${JSON.stringify(join(base, 'secret.log'))}, 'link.tmp'));
      ok(() => fs.renameSync('link.tmp', 'target.log'));
      ok(() => fs.linkSync('inside.log', 'file.tmp'));
      ok(() => fs.renameSync('file.tmp', 'target.log'));
    `);
    const seen = await readInLoop(server, 'target.log');
    console.log('file swap', seen);
    expect(seen.outside).toBe(0);
    // The race ran: both sides were met.
    expect(seen.inside).toBeGreaterThan(0);
    expect(seen.refused).toBeGreaterThan(0);
  });

  it('a parent directory swapped for a link out is never read or listed through it', async () => {
    const server = await connectFileServer({ roots: [root] });
    await swapper(`
      ok(() => fs.renameSync('real-dir', 'dir'));
      hold();
      ok(() => fs.renameSync('dir', 'real-dir'));
      ok(() => fs.symlinkSync(${JSON.stringify(join(base, 'out-dir'))}, 'dir'));
      hold();
      ok(() => fs.unlinkSync('dir'));
    `);
    const seen = await readInLoop(server, 'dir/file.log');
    console.log('dir swap', seen);
    expect(seen.outside).toBe(0);
    expect(seen.inside).toBeGreaterThan(0);
    let listedOutside = 0;
    for (let index = 0; index < reads; index++) {
      const text = textOf(await server.call('file_list', { path: 'dir' }));
      if (text.includes('outside-only') || text.includes(join(base, 'out-dir'))) listedOutside++;
    }
    expect(listedOutside).toBe(0);
  });

  it('a file swapped for a FIFO is refused, and no thread waits on it', async () => {
    const server = await connectFileServer({ roots: [root] });
    expect(await server.error('file_read', { path: 'pipe' })).toMatch(
      /^Error \(E_NOT_A_FILE\): pipe: Not a regular file/,
    );
    await swapper(`
      ok(() => fs.linkSync('pipe', 'pipe.tmp'));
      ok(() => fs.renameSync('pipe.tmp', 'target-pipe'));
      ok(() => fs.linkSync('inside.log', 'file.tmp'));
      ok(() => fs.renameSync('file.tmp', 'target-pipe'));
    `);
    // About 1 in 100 reads met the file at the check and the FIFO at the open: each such open
    // held one of libuv's 4 threads for good, and with them every later read.
    let fifoReads = 0;
    for (let index = 0; index < reads; index += 4) {
      const answers = await Promise.all(
        Array.from({ length: 4 }, () => server.call('file_read', { path: 'target-pipe' })),
      );
      fifoReads += answers.filter((answer) => textOf(answer).includes('E_NOT_A_FILE')).length;
    }
    expect(fifoReads).toBeGreaterThanOrEqual(8);
    expect(await server.text('file_read', { path: 'inside.log' })).toBe(
      'lines 1–1 of 1:\n1:inside\n',
    );
    expect(await server.text('file_list', { path: '.' })).toContain('pipe  (not a regular file)');
  });
});

/** Opens the FIFO for writing, which lets any open that waits for a writer return. */
async function releaseFifoReaders(path: string): Promise<void> {
  for (let attempt = 0; attempt < 16; attempt++) {
    const writer = await open(path, constants.O_WRONLY | constants.O_NONBLOCK).catch(() => null);
    await writer?.close();
  }
}
