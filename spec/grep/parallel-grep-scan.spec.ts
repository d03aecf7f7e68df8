import { execFileSync } from 'node:child_process';
import { readdirSync, readlinkSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FileSpoolReader, SpoolforgeError } from 'spoolforge';
import {
  compileMatcher,
  type GrepSink,
  grepScan,
  type ParallelGrepScanOptions,
  parallelGrepScan,
  patternRegex,
  readerChunks,
} from 'spoolforge/engine';
import { describe, expect, it, vi } from 'vitest';
import { edgeCaseInputs } from '../helpers/edge-case-inputs.js';
import { hasGnu, runCommand } from '../helpers/run-cli.js';
import { seededRandom } from '../helpers/seeded-random.js';
import { tempDirectory } from '../helpers/temp-files.js';

// The ordered parallel scan against one pass (grepScan) and GNU grep -a, on files split into
// 2 to 7 parts so matches, context groups and -m land on part boundaries everywhere.

/** The sizes of this process's open, unlinked spill files (Linux `/proc`). */
function spillFileSizes(): number[] {
  return readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      if (!/spoolforge-.*\/spool-.* \(deleted\)$/.test(target)) return [];
      return [statSync(`/proc/self/fd/${fd}`).size];
    } catch {
      return [];
    }
  });
}

/** Grep flags as a user types them, read into scan options. */
function readFlags(args: readonly string[]) {
  const options: ParallelGrepScanOptions = {};
  const value = (index: number) => Number(args[index + 1]);
  args.forEach((flag, index) => {
    if (flag === '-n') options.lineNumbers = true;
    if (flag === '-v') options.invert = true;
    if (flag === '-c') options.countOnly = true;
    if (flag === '-i') options.ignoreCase = true;
    if (flag === '-F') options.fixed = true;
    if (flag === '-o') options.onlyMatching = true;
    if (flag === '-m') options.maxCount = value(index);
    if (flag === '-A' || flag === '-C') options.after = value(index);
    if (flag === '-B' || flag === '-C') options.before = value(index);
  });
  options.context = options.after !== undefined || options.before !== undefined;
  return options;
}

/** What the CLI prints for a scan: GNU grep's format. */
async function printed(
  options: ParallelGrepScanOptions,
  scan: (sink: GrepSink) => Promise<{ matchCount: number }>,
): Promise<string> {
  const out: string[] = [];
  const sink: GrepSink = {
    line(bytes, lineNumber, isMatch) {
      const prefix = options.lineNumbers ? `${lineNumber + 1}${isMatch ? ':' : '-'}` : '';
      const text = Buffer.from(bytes).toString('latin1');
      // -o: a selected line comes as its matches joined by `\n`; context lines print nothing.
      if (!options.onlyMatching) out.push(`${prefix}${text}\n`);
      else if (isMatch && text !== '') out.push(...text.split('\n').map((m) => `${prefix}${m}\n`));
      return true;
    },
    separator: () => void out.push('--\n'),
    // As the CLI's: without line numbers, a part's output may come whole (one pass never).
    ...(options.lineNumbers
      ? {}
      : { text: (lines: Uint8Array) => out.push(Buffer.from(lines).toString('latin1')) > 0 }),
  };
  const { matchCount } = await scan(sink);
  if (!options.countOnly && !options.context && !options.lineNumbers && !options.onlyMatching) {
    // Printing only the selected lines: the count is the lines printed, however they came.
    expect(matchCount).toBe(out.join('').split('\n').length - 1);
  }
  if (options.countOnly) out.push(`${matchCount}\n`);
  return out.join('');
}

async function onePass(path: string, pattern: string, options: ParallelGrepScanOptions) {
  const { onlyMatching, ...rest } = options;
  const matcher = compileMatcher(pattern, rest);
  const reader = new FileSpoolReader(path);
  try {
    const chunks = readerChunks(reader, { reuseBuffers: true });
    const scan = {
      ...rest,
      matcher,
      ...(onlyMatching && { onlyMatching: patternRegex(pattern, { ...rest, global: true }) }),
    };
    return await printed(options, (sink) => grepScan(chunks, scan, sink));
  } finally {
    await reader.close();
    await matcher.dispose();
  }
}

const inParts = (path: string, pattern: string, options: ParallelGrepScanOptions) =>
  printed(options, (sink) => parallelGrepScan(path, pattern, options, sink));

/** Short lines, matches every few lines: groups touch, overlap and cross every boundary. */
function denseLog(lineCount: number, seed: number): string {
  const random = seededRandom(seed);
  const words = ['ERROR', 'warn', 'INFO', 'info', 'x'];
  return Array.from({ length: lineCount }, (_, line) => {
    const word = words[Math.floor(random() ** 2 * words.length)] ?? 'x';
    return `${line} ${word}${random() < 0.05 ? '\r' : ''}`;
  }).join('\n');
}

const cases: string[][] = [
  ['-n', 'ERROR'],
  ['ERROR'],
  ['-n', '-C', '3', 'ERROR'],
  ['-C', '2', 'warn'],
  ['-A', '4', 'ERROR'],
  ['-n', '-B', '5', 'ERROR'],
  ['-n', '-A', '0', 'ERROR'],
  ['-n', '-B', '2', '-A', '7', 'ERROR'],
  ['-n', '-m', '3', '-C', '3', 'warn'],
  ['-m', '40', '-A', '6', 'ERROR'],
  ['-n', '-m', '1', '-A', '2', 'x'],
  ['-m', '7', 'info'],
  ['-n', '-i', '-C', '1', 'info'],
  ['-n', '-v', '-C', '1', 'INFO'],
  ['-v', '-m', '25', '-A', '3', 'x'],
  ['-v', 'x'],
  ['-n', '^[0-9]+ (warn|ERROR)'],
  ['-n', '-C', '2', 'x.$'],
  ['-c', '-m', '9', 'ERROR'],
  ['-c', '-v', 'INFO'],
  ['-n', ''],
  ['-n', '-C', '1', 'LONG-ABSENT'],
  ['-m', '0', 'ERROR'],
  ['-o', 'ERROR'],
  ['-o', 'ERR[A-Z]+'],
  ['-o', '-n', '[0-9] in[a-z]+'],
  ['-o', '-n', '[0-9]+ (warn|ERROR)'],
  ['-o', '-n', '-C', '2', 'x.$'],
  ['-o', 'x*'],
  ['-o', '-v', 'x'],
  ['-o', '-m', '5', 'warn'],
];

/** For the edge cases, whose few lines fall into few parts: the shapes of output that differ. */
const edgeCases: string[][] = [
  ['-n', 'e'],
  ['-n', '-C', '1', 'e'],
  ['-B', '2', '-n', ''],
  ['-m', '1', '-A', '2', '-n', 'e'],
  ['-v', '-n', '-A', '1', 'x'],
  ['-c', 'e'],
  ['-o', '-n', 'e'],
  ['-o', 'e'],
];

const inputs: [string, Uint8Array, string[][]][] = [
  ...Object.entries(edgeCaseInputs()).map(([name, bytes]): [string, Uint8Array, string[][]] => [
    name,
    bytes,
    edgeCases,
  ]),
  ['dense log', Buffer.from(denseLog(3_000, 7)), cases],
  ['dense log, final newline', Buffer.from(`${denseLog(500, 11)}\n`), cases],
];

// Each scan starts its threads, which takes a while on a busy machine.
describe.each(inputs)('parallel grep scan of %s', { timeout: 180_000 }, (_name, bytes, cases) => {
  it('prints what one pass prints, in 2 to 7 parts', async () => {
    const path = join(await tempDirectory(), 'input.log');
    await writeFile(path, bytes);
    const differences: string[] = [];
    for (const args of cases) {
      const pattern = args.at(-1) ?? '';
      const options = readFlags(args.slice(0, -1));
      const expected = await onePass(path, pattern, options);
      for (const threads of [2, 7]) {
        const actual = await inParts(path, pattern, { ...options, threads });
        if (actual !== expected) differences.push(`${args.join(' ')} in ${threads} parts`);
      }
    }
    expect(differences).toEqual([]);
  });

  it.skipIf(!hasGnu('grep'))('prints what GNU grep -a prints', async () => {
    const path = join(await tempDirectory(), 'input.log');
    await writeFile(path, bytes);
    const differences: string[] = [];
    for (const args of cases) {
      const pattern = args.at(-1) ?? '';
      const flags = args.slice(0, -1);
      const gnu = await runCommand('grep', ['-a', '-E', ...flags, '-e', pattern, path]);
      const actual = await inParts(path, pattern, { ...readFlags(flags), threads: 3 });
      if (actual !== gnu.stdout.toString('latin1')) differences.push(args.join(' '));
    }
    expect(differences).toEqual([]);
  });
});

describe('parallel grep scan', () => {
  it('holds back a part that prints a lot until its turn, and loses nothing', async () => {
    const path = join(await tempDirectory(), 'input.log');
    await writeFile(path, denseLog(40_000, 3));
    const options = readFlags(['-n', '-C', '1', '-v']);
    const expected = await onePass(path, 'ERROR', options);
    // One byte of credit and no spill file: every batch waits until the main thread wrote it.
    const actual = await inParts(path, 'ERROR', {
      ...options,
      threads: 4,
      creditBytes: 1,
      spillBytes: 0,
    });
    expect(actual).toBe(expected);
    expect(actual.length).toBeGreaterThan(500_000);
  });

  it('hands over whole batches of plain output in part order, waiting for credit', async () => {
    const path = join(await tempDirectory(), 'input.log');
    await writeFile(path, denseLog(200_000, 7));
    const options = readFlags(['-v']);
    const expected = await onePass(path, 'ERROR', options);
    const actual = await inParts(path, 'ERROR', {
      ...options,
      threads: 4,
      creditBytes: 1,
      spillBytes: 0,
    });
    expect(actual).toBe(expected);
    expect(actual.length).toBeGreaterThan(4 * 256 * 1024); // more than a batch per part
  });

  /**
   * `grep -v ERROR` of a dense log in 3 parts with one byte of credit, against one pass: the
   * output, and the largest size a spill file had when looked at (after each batch; with
   * `watch`, until one shows). Spill files go to `spillDirectory` when given.
   */
  async function spilledScan(
    seed: number,
    options: ParallelGrepScanOptions,
    { watch = false, spillDirectory = '' } = {},
  ) {
    const path = join(await tempDirectory(), 'input.log');
    await writeFile(path, denseLog(200_000, seed));
    const flags = readFlags(['-v']);
    const expected = await onePass(path, 'ERROR', flags);
    if (spillDirectory) vi.stubEnv('TMPDIR', spillDirectory);
    let largestSpill = 0;
    const actual = await inParts(path, 'ERROR', {
      ...flags,
      threads: 3,
      creditBytes: 1,
      ...options,
      onProgress: async () => {
        // While the first part is written, the later ones go on into their files.
        for (let wait = 0; wait < (watch ? 100 : 1) && largestSpill === 0; wait++) {
          largestSpill = Math.max(largestSpill, ...spillFileSizes());
          if (watch && largestSpill === 0) await new Promise((resolve) => setTimeout(resolve, 20));
        }
        largestSpill = Math.max(largestSpill, ...spillFileSizes());
      },
    });
    expect(actual).toBe(expected);
    return largestSpill;
  }

  it("writes a later part's output to an unlinked file while it waits, read back in order", async () => {
    expect(await spilledScan(13, {}, { watch: true })).toBeGreaterThan(0);
    // Closed once the scan is over.
    expect(spillFileSizes()).toEqual([]);
  });

  it('waits for credit once its spill file holds spillBytes, and loses nothing', async () => {
    const largestSpill = await spilledScan(17, { spillBytes: 300_000 });
    expect(largestSpill).toBeGreaterThan(0);
    expect(largestSpill).toBeLessThanOrEqual(300_000);
  });

  it('waits for credit when the spill file meets a full disk, and loses nothing (needs root to mount a tmpfs)', async (context) => {
    const mountPoint = await tempDirectory();
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', mountPoint], {
        stdio: 'ignore',
      });
    } catch {
      context.skip();
    }
    try {
      const largestSpill = await spilledScan(19, {}, { spillDirectory: mountPoint });
      expect(largestSpill).toBeGreaterThan(0);
      expect(largestSpill).toBeLessThanOrEqual(256 * 1024);
    } finally {
      vi.unstubAllEnvs();
      execFileSync('umount', [mountPoint]);
    }
  });

  it('stops when a plain sink asks to, and counts what it printed', async () => {
    const path = join(await tempDirectory(), 'input.log');
    await writeFile(path, denseLog(40_000, 9));
    let batches = 0;
    const result = await parallelGrepScan(
      path,
      'x',
      { threads: 4 },
      {
        line: () => true,
        separator: () => undefined,
        text: () => ++batches < 2,
      },
    );
    expect(result).toMatchObject({ stoppedBySink: true });
    expect(batches).toBe(2);
    expect(result.matchCount).toBeGreaterThan(0);
  });

  it('stops when the sink asks to, with the lines before in order', async () => {
    const path = join(await tempDirectory(), 'input.log');
    await writeFile(path, denseLog(20_000, 5));
    const seen: number[] = [];
    const result = await parallelGrepScan(
      path,
      'x',
      { lineNumbers: true, threads: 4 },
      { line: (_bytes, lineNumber) => seen.push(lineNumber) < 1000, separator: () => undefined },
    );
    expect(result.stoppedBySink).toBe(true);
    expect(seen).toHaveLength(1000);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
  });

  it('greps the first part on the calling thread: a worker thread for each later part only', async () => {
    const path = join(await tempDirectory(), 'input.log');
    await writeFile(path, denseLog(20_000, 21));
    /** The process's threads (Linux): a worker thread is one more. */
    const threadCount = () => readdirSync('/proc/self/task').length;
    /** The count once the threads of a scan before have exited. */
    const settledThreadCount = async () => {
      for (let last = -1; ; ) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        const now = threadCount();
        if (now === last) return now;
        last = now;
      }
    };
    // Once, so that the threads Node starts lazily (libuv's pool, V8's) are already there.
    await parallelGrepScan(path, 'x', { threads: 2 }, { line: () => true, separator: () => {} });
    for (const threads of [1, 2, 3]) {
      const before = await settledThreadCount();
      let during = -1;
      await parallelGrepScan(
        path,
        'x',
        { threads, lineNumbers: true },
        {
          line() {
            // Seen at the first line, while every part is still being grepped.
            if (during === -1) during = threadCount();
            return true;
          },
          separator: () => undefined,
        },
      );
      expect(during - before).toBe(threads - 1);
    }
  });

  it('refuses an invalid pattern before starting threads, and a missing file', async () => {
    const path = join(await tempDirectory(), 'input.log');
    await writeFile(path, 'a\n');
    const lines: number[] = [];
    const sink: GrepSink = { line: (_b, n) => void lines.push(n), separator: () => undefined };
    const invalid = await parallelGrepScan(path, '(unclosed', { threads: 2 }, sink).catch(
      (error) => error,
    );
    expect(SpoolforgeError.isInstance(invalid) && invalid.code).toBe('E_REGEX_INVALID');
    const missing = await parallelGrepScan(`${path}.gone`, 'a', { threads: 2 }, sink).catch(
      (error) => error,
    );
    expect(SpoolforgeError.isInstance(missing) && missing.code).toBe('E_FILE_NOT_FOUND');
    expect(lines).toEqual([]);
  });

  it('rejects with E_ABORTED when aborted', async () => {
    const path = join(await tempDirectory(), 'input.log');
    await writeFile(path, denseLog(20_000, 9));
    const controller = new AbortController();
    const scan = parallelGrepScan(
      path,
      'x',
      { threads: 3, creditBytes: 1, signal: controller.signal },
      { line: () => void controller.abort(), separator: () => undefined },
    );
    const error = await scan.catch((caught) => caught);
    expect(SpoolforgeError.isInstance(error) && error.code).toBe('E_ABORTED');
  });
  it('stops a backtracking regex in the first part when aborted, at once', {
    timeout: 120_000,
  }, async () => {
    const path = join(await tempDirectory(), 'input.log');
    // Seconds of backtracking a line for a regex with a backreference (no automaton takes it),
    // all in the first part: its scan runs in the regex pool's worker, which only an abort stops.
    await writeFile(path, `${'a'.repeat(28)}\n`.repeat(3) + 'x\n'.repeat(60));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const started = Date.now();
    const scan = parallelGrepScan(
      path,
      '(a|a)*\\1[bc]',
      { threads: 2, signal: controller.signal },
      { line: () => true, separator: () => undefined },
    );
    const error = await scan.catch((caught) => caught);
    expect(SpoolforgeError.isInstance(error) && error.code).toBe('E_ABORTED');
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
