import { spawn, spawnSync } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { open, readFile, rm } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';

/**
 * A command to time: the program and its arguments, and optionally a file for standard input
 * (for `wc -l < file`).
 *
 * @example
 * ```ts
 * const command: CommandSpec = { argv: ['grep', '-a', '-c', 'INFO', logPath] };
 * ```
 */
export interface CommandSpec {
  argv: readonly string[];
  stdinPath?: string;
}

/**
 * One timed run of a command.
 *
 * @example
 * ```ts
 * const { seconds, peakRssBytes } = await runCommand(command, options);
 * ```
 */
export interface RunResult {
  /** Wall time from spawn to exit, as seen by this process. */
  seconds: number;
  /** Peak resident set size from GNU time; undefined when GNU time is not installed. */
  peakRssBytes: number | undefined;
  exitCode: number | null;
  /** The first bytes of standard error, for reporting failures. */
  stderr: string;
}

/**
 * How to run commands: the environment, GNU time's path (if any), and where stdout goes.
 *
 * @example
 * ```ts
 * const options: RunOptions = { environment, gnuTimePath: '/usr/bin/time', stdoutPath, rssPath };
 * ```
 */
export interface RunOptions {
  environment: NodeJS.ProcessEnv;
  gnuTimePath: string | undefined;
  /** Standard output is written here (a file, so no pipe back to this process slows the tool). */
  stdoutPath: string;
  /**
   * Write over `stdoutPath` from its start without truncating it: where it already holds as
   * many bytes, the tool writes into pages the file has, and is not timed on the system
   * finding new ones (on these VMs that alone moved a 2 GB write by 1-2.5 s from run to run).
   */
  overwrite?: boolean;
  /** Scratch file for GNU time's report. */
  rssPath: string;
}

const stderrLimit = 4096;

/**
 * Returns the path of GNU time when it is installed and reports peak RSS with `-f %M`; BusyBox
 * and shell-builtin `time` do not, and then RSS is reported as n/a.
 *
 * @example
 * ```ts
 * const gnuTimePath = findGnuTime(); // '/usr/bin/time' or undefined
 * ```
 */
export function findGnuTime(): string | undefined {
  for (const path of ['/usr/bin/time', '/bin/time', '/usr/local/bin/time']) {
    const probe = spawnSync(path, ['-f', '%M', 'true'], { encoding: 'utf8' });
    if (probe.status === 0 && /^\d+\s*$/.test(probe.stderr)) return path;
  }
  return undefined;
}

/**
 * Runs a command once, wrapped in GNU time when available, with standard output to a file
 * (flushed to disk once the clock stops); resolves with its wall time, peak RSS and exit status.
 *
 * @example
 * ```ts
 * const result = await runCommand({ argv: ['tail', '-n', '100', logPath] }, options);
 * ```
 */
export async function runCommand(command: CommandSpec, options: RunOptions): Promise<RunResult> {
  const [program, ...argumentList] = command.argv;
  if (program === undefined) throw new Error('empty command');
  const wrapped = options.gnuTimePath
    ? [options.gnuTimePath, '-f', '%M', '-o', options.rssPath, program, ...argumentList]
    : [program, ...argumentList];
  const stdout = await open(options.stdoutPath, options.overwrite ? 'r+' : 'w');
  const stdin = command.stdinPath ? await open(command.stdinPath, 'r') : undefined;
  try {
    const start = performance.now();
    const child = spawn(wrapped[0] as string, wrapped.slice(1), {
      env: options.environment,
      stdio: [stdin?.fd ?? 'ignore', stdout.fd, 'pipe'],
    });
    let stderr = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (text: string) => {
      if (stderr.length < stderrLimit) stderr += text.slice(0, stderrLimit - stderr.length);
    });
    const exitCode = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('close', resolve);
    });
    const seconds = (performance.now() - start) / 1000;
    // Untimed: what a printing row wrote (GBs for grep -v) goes to disk now, not during the
    // next tool's run, which the write-back would slow.
    await stdout.sync();
    const peakRssBytes = options.gnuTimePath ? await readGnuTimeRss(options.rssPath) : undefined;
    return { seconds, peakRssBytes, exitCode, stderr };
  } finally {
    await stdout.close();
    await stdin?.close();
  }
}

/**
 * Why a run failed, or undefined: it died from a signal, exited above 1, or exited 1 with a
 * message. grep's 1 means "no match" and prints nothing, while Node exits 1 for a crash or a
 * missing module.
 *
 * @example
 * ```ts
 * const problem = runFailure(result); // 'exit 2: grep: x.log: No such file or directory'
 * ```
 */
export function runFailure(result: RunResult): string | undefined {
  const message = result.stderr.trim();
  if (result.exitCode === 0 || (result.exitCode === 1 && message === '')) return undefined;
  return `exit ${result.exitCode}: ${message.split('\n').slice(0, 3).join(' | ')}`;
}

/**
 * The environment grep-like tools are timed in: `LC_ALL=C` puts GNU tools on their fastest byte
 * paths, and no ripgrep config file interferes; `extra` is added on top.
 *
 * @example
 * ```ts
 * const environment = toolEnvironment({ SPOOLFORGE_CACHE_DIR: join(workDirectory, 'cache') });
 * ```
 */
export function toolEnvironment(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const { RIPGREP_CONFIG_PATH: _ripgrepConfig, ...inherited } = process.env;
  return { ...inherited, LC_ALL: 'C', ...extra };
}

/** GNU time writes "Command exited with non-zero status N" before the value on failures. */
async function readGnuTimeRss(path: string): Promise<number | undefined> {
  const text = await readFile(path, 'utf8').catch(() => '');
  await rm(path, { force: true });
  const kibibytes = Number(text.trim().split('\n').at(-1));
  return Number.isFinite(kibibytes) && kibibytes > 0 ? kibibytes * 1024 : undefined;
}

/**
 * The median of a non-empty list (the mean of the middle two for an even count).
 *
 * @example
 * ```ts
 * median([3, 1, 2]); // 2
 * ```
 */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((first, second) => first - second);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? Number.NaN)
    : ((sorted[middle - 1] ?? Number.NaN) + (sorted[middle] ?? Number.NaN)) / 2;
}

/**
 * Compares two files byte for byte, streaming, and describes the first difference.
 *
 * @example
 * ```ts
 * const difference = await compareFiles(expectedPath, actualPath); // undefined when equal
 * ```
 */
export async function compareFiles(
  expectedPath: string,
  actualPath: string,
): Promise<string | undefined> {
  const expected = createReadStream(expectedPath)[Symbol.asyncIterator]();
  const actual = createReadStream(actualPath)[Symbol.asyncIterator]();
  let expectedChunk: Buffer = Buffer.alloc(0);
  let actualChunk: Buffer = Buffer.alloc(0);
  let expectedDone = false;
  let actualDone = false;
  let offset = 0;
  try {
    for (;;) {
      if (expectedChunk.length === 0 && !expectedDone) {
        const next = await expected.next();
        if (next.done) expectedDone = true;
        else expectedChunk = next.value as Buffer;
      }
      if (actualChunk.length === 0 && !actualDone) {
        const next = await actual.next();
        if (next.done) actualDone = true;
        else actualChunk = next.value as Buffer;
      }
      if (expectedChunk.length === 0 || actualChunk.length === 0) {
        if (expectedChunk.length === actualChunk.length) return undefined;
        const longer = expectedChunk.length > 0 ? 'expected' : 'actual';
        return `byte ${offset}: ${longer} output is longer, next ${quote(longer === 'expected' ? expectedChunk : actualChunk)}`;
      }
      const length = Math.min(expectedChunk.length, actualChunk.length);
      const same = expectedChunk.subarray(0, length).equals(actualChunk.subarray(0, length));
      for (let index = 0; !same && index < length; index++) {
        if (expectedChunk[index] !== actualChunk[index]) {
          return `byte ${offset + index}: expected ${quote(expectedChunk.subarray(index))}, got ${quote(actualChunk.subarray(index))}`;
        }
      }
      offset += length;
      expectedChunk = expectedChunk.subarray(length);
      actualChunk = actualChunk.subarray(length);
    }
  } finally {
    await expected.return?.();
    await actual.return?.();
  }
}

function quote(bytes: Buffer): string {
  return JSON.stringify(bytes.subarray(0, 60).toString('latin1'));
}
