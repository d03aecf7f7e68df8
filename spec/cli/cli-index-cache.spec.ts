import { mkdir, readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { decode, encode } from '@msgpack/msgpack';
import type { LineIndexSnapshot } from 'spoolforge';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { tempDirectory, tempFile } from '../helpers/temp-files.js';

/** 20 MiB of numbered lines: above the 16 MiB under which the CLI keeps no index. */
const lineCount = 400_000;
const bigLog = Array.from(
  { length: lineCount },
  (_, line) => `line ${line + 1} ${'x'.repeat(40 + (line % 20))}\n`,
).join('');

let cacheDirectory = '';
const saved = process.env.SPOOLFORGE_CACHE_DIR;
beforeEach(async () => {
  cacheDirectory = await tempDirectory();
  process.env.SPOOLFORGE_CACHE_DIR = cacheDirectory;
});
afterEach(() => {
  process.env.SPOOLFORGE_CACHE_DIR = saved;
});

const cacheFiles = async () =>
  (await readdir(join(cacheDirectory, 'line-index')).catch(() => [])).map((name) =>
    join(cacheDirectory, 'line-index', name),
  );

type StoredIndex = Omit<LineIndexSnapshot, 'lines' | 'offsets'> & {
  lines: Uint8Array;
  offsets: Uint8Array;
};

/** Rewrites the one cache entry through `change` (keeping it well formed). */
async function tamper(change: (index: LineIndexSnapshot) => void): Promise<void> {
  const [file] = await cacheFiles();
  const entry = decode(await readFile(file as string)) as { index: StoredIndex };
  // Checkpoints are stored as float64 bytes.
  const numbers = (bytes: Uint8Array) =>
    Array.from(new Float64Array(Uint8Array.prototype.slice.call(bytes).buffer));
  const bytes = (values: number[]) => new Uint8Array(Float64Array.from(values).buffer);
  const index = {
    ...entry.index,
    lines: numbers(entry.index.lines),
    offsets: numbers(entry.index.offsets),
  };
  change(index);
  entry.index = { ...index, lines: bytes(index.lines), offsets: bytes(index.offsets) };
  await writeFile(file as string, encode(entry));
}

describe('the CLI line index cache', () => {
  it('persists the index a lines call builds, and the next call seeks with it', async () => {
    const path = await tempFile(bigLog, 'big.log');
    const first = await runCli(['lines', '350000', '350001', path]);
    expect(first.stdout.toString()).toMatch(/^line 350000 x+\nline 350001 x+\n$/);
    expect(await cacheFiles()).toHaveLength(1);
    // Every checkpoint claims one line more than it starts: only a reader of the index is fooled.
    await tamper((index) => {
      index.lines = index.lines.map((line, position) => (position === 0 ? 0 : line + 1));
      index.newlineCount += 1;
    });
    const second = await runCli(['lines', '350000', '350000', path]);
    expect(second.stdout.toString()).toMatch(/^line 349999 /);
    // A changed file (new mtime) no longer matches the entry: a fresh, right answer.
    await utimes(path, new Date(), new Date(Date.now() + 5_000));
    const third = await runCli(['lines', '350000', '350000', path]);
    expect(third.stdout.toString()).toMatch(/^line 350000 /);
  });

  it('answers count from a complete index', async () => {
    const path = await tempFile(bigLog, 'big.log');
    expect((await runCli(['count', path])).stdout.toString()).toBe(`${lineCount}\n`);
    await tamper((index) => {
      index.newlineCount += 5;
    });
    expect((await runCli(['count', path])).stdout.toString()).toBe(`${lineCount + 5}\n`);
    const stat = JSON.parse((await runCli(['stat', path])).stdout.toString());
    expect(stat).toEqual({ bytes: Buffer.byteLength(bigLog), lines: lineCount + 5, kind: 'text' });
  });

  it('keeps nothing for small files, and nothing at all when turned off', async () => {
    const small = await tempFile('a\nb\nc\n');
    expect((await runCli(['lines', '2', '2', small])).stdout.toString()).toBe('b\n');
    expect(await cacheFiles()).toEqual([]);
    process.env.SPOOLFORGE_CACHE_DIR = 'off';
    const path = await tempFile(bigLog, 'big.log');
    expect((await runCli(['count', path])).stdout.toString()).toBe(`${lineCount}\n`);
    expect(await cacheFiles()).toEqual([]);
  });

  it('removes entries unused for 30 days when it saves another', async () => {
    const directory = join(cacheDirectory, 'line-index');
    await mkdir(directory, { recursive: true });
    const stale = join(directory, `${'0'.repeat(64)}.msgpack`);
    const recent = join(directory, `${'1'.repeat(64)}.msgpack`);
    await writeFile(stale, 'an index of a log rotated away long ago');
    await writeFile(recent, 'an index used last week');
    const longAgo = new Date(Date.now() - 40 * 86_400_000);
    const lastWeek = new Date(Date.now() - 7 * 86_400_000);
    await utimes(stale, longAgo, longAgo);
    await utimes(recent, lastWeek, lastWeek);
    const path = await tempFile(bigLog, 'big.log');
    await runCli(['count', path]);
    const names = await cacheFiles();
    expect(names).toHaveLength(2);
    expect(names).toContain(recent);
    expect(names).not.toContain(stale);
  });

  it('ignores a corrupt cache entry', async () => {
    const path = await tempFile(bigLog, 'big.log');
    await runCli(['count', path]);
    const [file] = await cacheFiles();
    await writeFile(file as string, 'not msgpack at all');
    expect((await runCli(['lines', '5', '5', path])).stdout.toString()).toMatch(/^line 5 /);
    expect((await runCli(['count', path])).stdout.toString()).toBe(`${lineCount}\n`);
  });
});
