/**
 * The remote benchmark: `npm run bench:remote -- [--size 512M] [--runs 3] [--results PATH]`.
 * Serves the cached multi-service log on 127.0.0.1 with nginx (with `send` in this process where
 * nginx is not installed) and times the spoolforge CLI on its URL against `curl URL | <GNU tool>`,
 * runs interleaved, counting the requests and bytes the server sent for each command. Prints a
 * table, then the goals (each scan at most 1.2× the same scan through curl, peak RSS at most
 * 128 MiB) with the measured values, and writes JSON to `bench/results/`.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import send from 'send';
import { firstLine, loadAverage, parseBenchOptions, runFacts } from '../shared/bench-options.js';
import { repositoryRoot, resultsDirectory } from '../shared/bench-paths.js';
import { ensureBuilt } from '../shared/ensure-built.js';
import { ensureLog, rareLiteral } from '../shared/generate-log.js';
import {
  formatGoals,
  type GoalResult,
  peakRssGoal,
  times,
  unmeasuredGoal,
} from '../shared/goal-result.js';
import { findGnuTime, median, type RunOptions, runCommand } from '../shared/measure.js';
import { renderTable, type TableColumn, writeResults } from '../shared/report.js';
import { type CountingServer, startNginx } from './nginx-server.js';

const cliPath = join(repositoryRoot, 'dist', 'cli', 'main.js');
const mebibyte = 1024 * 1024;

interface RemoteRow {
  operation: string;
  tool: string;
  command: string;
  medianSeconds: number;
  /** The fastest run: what goals compare, as load on a shared machine only ever adds time. */
  minSeconds: number;
  seconds: number[];
  requests: number;
  bytesSent: number;
  peakRssMebibytes: number | undefined;
  output: string;
}

/** A `send` file server in this process that counts requests and body bytes. */
async function startSendServer(path: string): Promise<CountingServer> {
  const counts = { requests: 0, bytes: 0 };
  const server = createServer((request, response) => {
    counts.requests++;
    const write = response.write.bind(response) as (chunk: unknown, ...rest: unknown[]) => boolean;
    response.write = ((chunk: unknown, ...rest: unknown[]) => {
      if (chunk && typeof chunk !== 'function') counts.bytes += Buffer.byteLength(chunk as Buffer);
      return write(chunk, ...rest);
    }) as typeof response.write;
    const pathname = new URL(request.url ?? '/', 'http://localhost').pathname;
    send(request, pathname, { root: dirname(path) }).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/${basename(path)}`,
    name: 'send',
    counters: async () => ({ ...counts }),
    reset: async () => {
      counts.requests = 0;
      counts.bytes = 0;
    },
    close: async () => void server.close(),
  };
}

async function main(): Promise<void> {
  const options = parseBenchOptions();
  ensureBuilt(repositoryRoot);
  const logPath = await ensureLog({ size: options.size });
  const server = (await startNginx(logPath)) ?? (await startSendServer(logPath));
  const { url } = server;
  const workDirectory = await mkdtemp(join(tmpdir(), 'spoolforge-remote-bench-'));
  const runOptions: RunOptions = {
    environment: { ...process.env, LC_ALL: 'C', SPOOLFORGE_CACHE_DIR: 'off' },
    gnuTimePath: findGnuTime(),
    stdoutPath: join(workDirectory, 'stdout'),
    rssPath: join(workDirectory, 'rss'),
  };
  const spoolforge = (...args: string[]) => [process.execPath, cliPath, ...args, url];
  const curl = (pipeline: string) => ['sh', '-c', `curl -s '${url}' | ${pipeline}`];
  const operations: { operation: string; tool: string; argv: string[] }[] = [
    { operation: 'tail -n 20', tool: 'spoolforge', argv: spoolforge('tail', '-n', '20') },
    { operation: 'tail -n 20', tool: 'curl | tail', argv: curl('tail -n 20') },
    { operation: 'head -n 20', tool: 'spoolforge', argv: spoolforge('head', '-n', '20') },
    { operation: 'head -n 20', tool: 'curl | head', argv: curl('head -n 20') },
    ...[rareLiteral, 'ERROR'].flatMap((literal) => [
      {
        operation: `grep -c ${literal}`,
        tool: 'spoolforge',
        argv: spoolforge('grep', '-c', literal),
      },
      { operation: `grep -c ${literal}`, tool: 'curl | grep', argv: curl(`grep -c ${literal}`) },
    ]),
    { operation: 'count lines', tool: 'spoolforge', argv: spoolforge('count') },
    { operation: 'count lines', tool: 'curl | wc -l', argv: curl('wc -l') },
  ];
  const rows: RemoteRow[] = operations.map(({ operation, tool, argv }) => ({
    operation,
    tool,
    command: argv.join(' ').replace(cliPath, 'spoolforge'),
    medianSeconds: 0,
    minSeconds: 0,
    seconds: [],
    requests: 0,
    bytesSent: 0,
    peakRssMebibytes: undefined,
    output: '',
  }));
  try {
    // Warm the page cache so the server reads from memory for every tool alike.
    await runCommand({ argv: ['sh', '-c', 'cat "$0" > /dev/null', logPath] }, runOptions);
    // Runs interleaved: a burst of load on the machine falls on every tool alike.
    for (let run = 0; run < options.runs; run++) {
      for (const [index, { argv }] of operations.entries()) {
        const row = rows[index] as RemoteRow;
        await server.reset();
        const result = await runCommand({ argv }, runOptions);
        if (result.exitCode !== 0) throw new Error(`${argv.join(' ')}: ${result.stderr}`);
        row.seconds.push(result.seconds);
        const sent = await server.counters();
        row.requests = sent.requests;
        row.bytesSent = sent.bytes;
        const rss = (result.peakRssBytes ?? 0) / mebibyte;
        row.peakRssMebibytes = rss ? Math.max(row.peakRssMebibytes ?? 0, rss) : undefined;
        row.output = (await readFile(runOptions.stdoutPath, 'utf8')).slice(0, 4096);
      }
    }
    for (const row of rows) {
      row.medianSeconds = median(row.seconds);
      row.minSeconds = Math.min(...row.seconds);
      console.error(`${row.operation} / ${row.tool}: ${row.medianSeconds.toFixed(3)} s`);
    }
  } finally {
    await server.close();
    await rm(workDirectory, { recursive: true, force: true });
  }
  const size = options.size;
  const columns: TableColumn<RemoteRow>[] = [
    { title: 'operation', align: 'left', value: (row) => row.operation },
    { title: 'tool', align: 'left', value: (row) => row.tool },
    { title: 'median s', align: 'right', value: (row) => row.medianSeconds.toFixed(3) },
    { title: 'min s', align: 'right', value: (row) => row.minSeconds.toFixed(3) },
    { title: 'requests', align: 'right', value: (row) => String(row.requests) },
    {
      title: 'bytes sent',
      align: 'right',
      value: (row) =>
        row.bytesSent < mebibyte
          ? `${(row.bytesSent / 1024).toFixed(0)} KiB`
          : `${(row.bytesSent / mebibyte).toFixed(1)} MiB`,
    },
    {
      title: 'MiB/s',
      align: 'right',
      value: (row) =>
        row.bytesSent >= size * 0.9 ? (size / mebibyte / row.medianSeconds).toFixed(0) : '-',
    },
    {
      title: 'peak RSS MiB',
      align: 'right',
      value: (row) => row.peakRssMebibytes?.toFixed(1) ?? 'n/a',
    },
    { title: 'output', align: 'left', value: (row) => sameOutput(rows, row) },
  ];
  console.log(
    `\nremote log: ${(size / mebibyte).toFixed(0)} MiB over http://127.0.0.1 (${server.name}), ${options.runs} runs interleaved, load ${loadAverage()}; ${firstLine(['curl', '--version'])}\n`,
  );
  console.log(renderTable(columns, rows));
  const goals = remoteGoals(rows);
  console.log(`\n${formatGoals(goals)}`);
  const date = new Date().toISOString().replace(/[:.]/g, '-');
  const resultsPath =
    options.resultsPath ?? join(resultsDirectory, `remote-${options.sizeLabel}-${date}.json`);
  await writeResults(resultsPath, { size, runs: options.runs, ...runFacts(), goals, rows });
  console.log(`\nresults: ${resultsPath}`);
}

/** The largest ratio of a scan to `curl URL | grep -c`, and the largest peak RSS, allowed. */
const maxRatio = 1.2;
const maxRssMebibytes = 128;

/**
 * The remote goals: each scan (`grep -c` of a rare and of a frequent literal, `count`) at most
 * {@link maxRatio}× the same scan as `curl URL | grep -c` (or `| wc -l`), the fastest runs of
 * each, and every spoolforge row within {@link maxRssMebibytes} MiB.
 */
function remoteGoals(rows: readonly RemoteRow[]): GoalResult[] {
  const goals: GoalResult[] = [];
  for (const row of rows.filter(({ tool }) => tool === 'spoolforge')) {
    if (!/^(grep -c|count)/.test(row.operation)) continue;
    const peer = rows.find(
      ({ operation, tool }) => operation === row.operation && tool.startsWith('curl'),
    );
    const label = `${row.operation} (URL)`;
    const goal = `≤ ${maxRatio}× ${peer?.tool ?? 'curl URL | …'} (fastest runs)`;
    if (!peer) {
      goals.push(unmeasuredGoal(label, goal, 'no curl row'));
      continue;
    }
    const ratio = row.minSeconds / peer.minSeconds;
    goals.push({
      operation: label,
      goal,
      measured: `${times(ratio)} (${row.minSeconds.toFixed(3)} s vs ${peer.minSeconds.toFixed(3)} s)`,
      ratio,
      met: ratio <= maxRatio,
    });
  }
  goals.push(
    peakRssGoal(
      'peak RSS, every spoolforge row (URL)',
      rows.filter(({ tool }) => tool === 'spoolforge'),
      maxRssMebibytes,
      (row) => row.operation,
    ),
  );
  return goals;
}

/** `ok` when a row printed what the other tool printed for the same operation. */
function sameOutput(rows: readonly RemoteRow[], row: RemoteRow): string {
  const other = rows.find(
    (candidate) => candidate.operation === row.operation && candidate !== row,
  );
  if (!other) return 'n/a';
  const normalise = (text: string) => text.trim();
  return normalise(other.output) === normalise(row.output) ? 'ok' : 'MISMATCH';
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
