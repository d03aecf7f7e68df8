import { spawnSync } from 'node:child_process';
import { mkdir, readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliPath, runCli, runCommand } from '../helpers/run-cli.js';
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

interface Entry {
  header: Record<string, unknown> & { newlineCount: number; checkpointCount: number };
  lines: number[];
  offsets: number[];
}

/**
 * Reads an entry as the cache writes it: 'SFLINDEX', the header's length (uint32 LE), the header
 * (JSON padded to 8 bytes), the checkpoint lines and offsets as float64 arrays, then the
 * checksum of all that.
 */
function readEntry(bytes: Buffer): Entry {
  expect(bytes.toString('latin1', 0, 8)).toBe('SFLINDEX');
  const dataStart = 12 + bytes.readUInt32LE(8);
  const header = JSON.parse(bytes.toString('utf8', 12, dataStart));
  const count = header.checkpointCount;
  const numbers = (start: number) =>
    Array.from(
      new Float64Array(Uint8Array.prototype.slice.call(bytes, start, start + count * 8).buffer),
    );
  return { header, lines: numbers(dataStart), offsets: numbers(dataStart + count * 8) };
}

function writeEntry({ header, lines, offsets }: Entry): Buffer {
  let text = JSON.stringify(header);
  text = text.padEnd(text.length + ((8 - ((12 + text.length) % 8)) % 8));
  const prefix = Buffer.alloc(12);
  prefix.write('SFLINDEX', 'latin1');
  prefix.writeUInt32LE(text.length, 8);
  const float64 = (values: number[]) => Buffer.from(Float64Array.from(values).buffer);
  const body = Buffer.concat([prefix, Buffer.from(text), float64(lines), float64(offsets)]);
  return Buffer.concat([body, checksum(body)]);
}

/**
 * The entry's checksum, as the format defines it: FNV-1a over its 32-bit words (native order)
 * in two lanes, the second mixing in its own high bits, each lane a uint32 of the result.
 */
function checksum(body: Buffer): Buffer {
  const words = new Uint32Array(new Uint8Array(body).buffer);
  let first = 0x811c9dc5;
  let second = 0x2545f491;
  for (const word of words) {
    first = Math.imul(first ^ word, 0x01000193);
    second = Math.imul(second ^ (second >>> 15) ^ word, 0x2c1b3c6d);
  }
  return Buffer.from(Uint32Array.of(first, second).buffer);
}

/** Rewrites the one cache entry through `change` (keeping it well formed, its checksum right). */
async function tamper(change: (entry: Entry) => void): Promise<void> {
  const [file] = await cacheFiles();
  const entry = readEntry(await readFile(file as string));
  change(entry);
  await writeFile(file as string, writeEntry(entry));
}

/** util-linux `script` runs a command on a pseudo-terminal: standard error is a terminal there. */
const hasScript = spawnSync('script', ['--version']).status === 0;

describe('the CLI line index cache', () => {
  it.skipIf(!hasScript)('says once, on a terminal, where it created its directory', async () => {
    const path = await tempFile(bigLog, 'big.log');
    const directory = join(cacheDirectory, 'fresh');
    process.env.SPOOLFORGE_CACHE_DIR = directory;
    const onTerminal = async () =>
      (
        await runCommand('script', [
          '-qec',
          `'${process.execPath}' '${cliPath}' count '${path}'`,
          '/dev/null',
        ])
      ).stdout.toString();
    const notice = `spoolforge: keeping line indexes of large files in ${join(directory, 'line-index')} (SPOOLFORGE_CACHE_DIR=off turns this off)\r\n`;
    expect(await onTerminal()).toBe(`${notice}${lineCount}\r\n`);
    expect(await onTerminal()).toBe(`${lineCount}\r\n`);
  });

  it('says nothing of it when standard error is not a terminal', async () => {
    const path = await tempFile(bigLog, 'big.log');
    const result = await runCli(['count', path]);
    expect(result.stderr).toBe('');
    expect(await cacheFiles()).toHaveLength(1);
  });

  it('persists the index a lines call builds, and the next call seeks with it', async () => {
    const path = await tempFile(bigLog, 'big.log');
    const first = await runCli(['lines', '350000', '350001', path]);
    expect(first.stdout.toString()).toMatch(/^line 350000 x+\nline 350001 x+\n$/);
    expect(await cacheFiles()).toHaveLength(1);
    // Every checkpoint claims one line more than it starts: only a reader of the index is fooled.
    await tamper((entry) => {
      entry.lines = entry.lines.map((line, position) => (position === 0 ? 0 : line + 1));
      entry.header.newlineCount += 1;
    });
    const second = await runCli(['lines', '350000', '350000', path]);
    expect(second.stdout.toString()).toMatch(/^line 349999 /);
    // A changed file (new mtime) no longer matches the entry: a fresh, right answer.
    await utimes(path, new Date(), new Date(Date.now() + 5_000));
    const third = await runCli(['lines', '350000', '350000', path]);
    expect(third.stdout.toString()).toMatch(/^line 350000 /);
  });

  it('keeps one checkpoint a MiB, and finds every line between two of them', async () => {
    const path = await tempFile(bigLog, 'big.log');
    await runCli(['count', path]);
    const [file] = await cacheFiles();
    const { header, offsets } = readEntry(await readFile(file as string));
    expect(header.stride).toBe(1024 * 1024);
    expect(offsets.length).toBe(Math.floor(Buffer.byteLength(bigLog) / (1024 * 1024)) + 1);
    // Lines right before, at and after checkpoints, and far past one: up to a MiB read each.
    const expected = (line: number) => `line ${line} ${'x'.repeat(40 + ((line - 1) % 20))}\n`;
    for (const offset of offsets.slice(1, 4)) {
      const line = bigLog.slice(0, offset).split('\n').length;
      for (const [first, last] of [
        [line - 1, line + 1],
        [line + 9000, line + 9000],
      ] as const) {
        const answer = await runCli(['lines', String(first), String(last), path]);
        const lines = Array.from({ length: last - first + 1 }, (_, at) => expected(first + at));
        expect(answer.stdout.toString()).toBe(lines.join(''));
      }
    }
  });

  it('answers count from a complete index', async () => {
    const path = await tempFile(bigLog, 'big.log');
    expect((await runCli(['count', path])).stdout.toString()).toBe(`${lineCount}\n`);
    await tamper((entry) => {
      entry.header.newlineCount += 5;
    });
    expect((await runCli(['count', path])).stdout.toString()).toBe(`${lineCount + 5}\n`);
    const stat = JSON.parse((await runCli(['stat', path])).stdout.toString());
    expect(stat).toEqual({ bytes: Buffer.byteLength(bigLog), lines: lineCount + 5, kind: 'text' });
  });

  it('ignores an entry that claims more bytes than the file has', async () => {
    const path = await tempFile(bigLog, 'big.log');
    await runCli(['count', path]);
    await tamper((entry) => {
      entry.header.byteLength = (entry.header.byteLength as number) + 1_000_000;
      entry.header.newlineCount += 5;
    });
    const stat = JSON.parse((await runCli(['stat', path])).stdout.toString());
    expect(stat).toEqual({ bytes: Buffer.byteLength(bigLog), lines: lineCount, kind: 'text' });
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

  it('removes entries unused for 30 days, and those of the msgpack format, when it saves another', async () => {
    const directory = join(cacheDirectory, 'line-index');
    await mkdir(directory, { recursive: true });
    const stale = join(directory, '2049-1234.index');
    const recent = join(directory, '2049-5678.index');
    const oldFormat = join(directory, `${'2'.repeat(64)}.msgpack`);
    await writeFile(oldFormat, 'an index in the format before, used today');
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
    expect(names).not.toContain(oldFormat);
  });

  it('ignores an entry whose checkpoints were changed past its checksum, and writes it anew', async () => {
    const path = await tempFile(bigLog, 'big.log');
    await runCli(['lines', '350000', '350001', path]);
    const [file] = await cacheFiles();
    const saved = await readFile(file as string);
    // Every checkpoint but the first shifted by one line, in place: still ascending, still the
    // entry's length, only the checksum can tell.
    const bytes = Buffer.from(saved);
    const dataStart = 12 + bytes.readUInt32LE(8);
    const { checkpointCount } = JSON.parse(bytes.toString('latin1', 12, dataStart));
    for (let checkpoint = 1; checkpoint < checkpointCount; checkpoint++) {
      const at = dataStart + checkpoint * 8;
      bytes.writeDoubleLE(bytes.readDoubleLE(at) + 1, at);
    }
    await writeFile(file as string, bytes);
    const answer = await runCli(['lines', '350000', '350000', path]);
    expect(answer.stdout.toString()).toMatch(/^line 350000 /);
    expect(await readFile(file as string)).toEqual(saved);
  });

  it('ignores a corrupt cache entry', async () => {
    const path = await tempFile(bigLog, 'big.log');
    await runCli(['count', path]);
    const [file] = await cacheFiles();
    await writeFile(file as string, 'not an index at all');
    expect((await runCli(['lines', '5', '5', path])).stdout.toString()).toMatch(/^line 5 /);
    expect((await runCli(['count', path])).stdout.toString()).toBe(`${lineCount}\n`);
  });
});
