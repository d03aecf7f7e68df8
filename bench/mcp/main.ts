/**
 * The MCP proxy benchmark: `npm run bench:mcp -- [--text-mb 30] [--big-mb 200] [--calls 500]`
 * (after `npm run build`). An SDK `Client` over stdio talks to `spoolforge mcp` wrapping the
 * bench's upstream server (children/upstream-server.ts) and measures the tokens the client
 * receives for a big text result against inlining it, the proxy's added latency for small
 * results against calling the server directly, and the proxy's peak RSS for a very big
 * result. Prints the goals with measured values and writes JSON to `bench/results/`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { countTextTokens } from '../../dist/engine.js';
import { loadAverage } from '../shared/bench-options.js';
import { repositoryRoot, resultsDirectory } from '../shared/bench-paths.js';
import { ensureBuilt } from '../shared/ensure-built.js';
import { renderTable, type TableColumn, writeResults } from '../shared/report.js';
import { compareLatency } from './latency.js';
import { logText } from './log-text.js';
import {
  callTool,
  cliPath,
  connectStdio,
  cpuSeconds,
  firstText,
  peakRssBytes,
  proxyArgv,
  upstreamArgv,
} from './mcp-clients.js';

const megabyte = 1_000_000;
const mebibyte = 1024 * 1024;
const handleTokenGoal = 300;
const addedLatencyGoal = 5;
const warmUpCalls = 50;

interface GoalRow {
  operation: string;
  goal: string;
  measured: string;
  /** Measured over the goal's bound: at most 1 meets it. */
  ratio: number;
}

function parseOptions() {
  const { values } = parseArgs({
    options: {
      'text-mb': { type: 'string', default: '30' },
      'big-mb': { type: 'string', default: '200' },
      calls: { type: 'string', default: '500' },
    },
  });
  const whole = (name: string, text: string, minimum: number) => {
    const value = Number(text);
    if (!Number.isInteger(value) || value < minimum) {
      throw new Error(`--${name}: expected a whole number ≥ ${minimum}, got '${text}'`);
    }
    return value;
  };
  return {
    textBytes: whole('text-mb', values['text-mb'], 1) * megabyte,
    bigBytes: whole('big-mb', values['big-mb'], 1) * megabyte,
    calls: whole('calls', values.calls, 300),
  };
}

/** The fastest of a few `node -e 0`: what starting any Node process costs on this machine. */
function nodeStartMilliseconds(): number {
  const times = Array.from({ length: 5 }, () => {
    const start = performance.now();
    spawnSync(process.execPath, ['-e', '0']);
    return performance.now() - start;
  });
  return Math.min(...times);
}

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; milliseconds: number }> {
  const start = performance.now();
  const value = await run();
  return { value, milliseconds: performance.now() - start };
}

/** Tokens of the 30 MB result as the client receives it, and of the text inlined. */
async function measureTokens(storeDirectory: string, bytes: number) {
  const proxy = await connectStdio(proxyArgv(storeDirectory));
  try {
    const result = await callTool(proxy.client, 'text', { bytes });
    const received = JSON.stringify(result.content);
    if (!/callId "[^"]+"/.test(firstText(result))) {
      throw new Error(`the proxy did not return a handle: ${received.slice(0, 500)}`);
    }
    const inline = await timed(() => countTextTokens(logText(bytes)));
    return {
      content: result.content,
      handleTokens: await countTextTokens(firstText(result)),
      receivedBytes: Buffer.byteLength(received),
      receivedTokens: await countTextTokens(received),
      inlineTokens: inline.value,
      inlineCountMilliseconds: inline.milliseconds,
    };
  } finally {
    await proxy.close();
  }
}

/**
 * What the same client gets calling the upstream directly for the big text: the SDK's stdio
 * client drops a message over 10 MiB and closes the connection.
 */
async function directOutcome(bytes: number): Promise<string> {
  const direct = await connectStdio(upstreamArgv);
  try {
    const call = await timed(() => callTool(direct.client, 'text', { bytes }));
    return `received ${Buffer.byteLength(JSON.stringify(call.value.content))} bytes in ${(call.milliseconds / 1000).toFixed(1)} s`;
  } catch (error) {
    return `failed: ${(error as Error).message}`;
  } finally {
    await direct.close();
  }
}

async function measureLatency(storeDirectory: string, calls: number) {
  const proxy = await connectStdio(proxyArgv(storeDirectory));
  const direct = await connectStdio(upstreamArgv);
  try {
    return await compareLatency({
      direct: direct.client,
      proxied: proxy.client,
      tool: 'small',
      calls,
      warmUp: warmUpCalls,
    });
  } finally {
    await Promise.all([proxy.close(), direct.close()]);
  }
}

interface UpstreamStats {
  pid: number;
  peakRssBytes: number;
  lastBuildMilliseconds: number;
}

const upstreamStats = async (client: Client) =>
  JSON.parse(firstText(await callTool(client, 'stats'))) as UpstreamStats;

/**
 * One big result through a fresh proxy: its peak RSS, the wall time, the upstream's RSS, and
 * the CPU time each process spent on the call (where the wall time goes).
 */
async function measureBigResult(storeDirectory: string, bytes: number) {
  const proxy = await connectStdio(proxyArgv(storeDirectory));
  try {
    const idleRssBytes = await peakRssBytes(proxy.pid);
    const { pid: upstreamPid } = await upstreamStats(proxy.client);
    const cpuBefore = [await cpuSeconds(proxy.pid), await cpuSeconds(upstreamPid)];
    const call = await timed(() => callTool(proxy.client, 'text', { bytes }));
    const proxyPeakRssBytes = await peakRssBytes(proxy.pid);
    const cpuAfter = [await cpuSeconds(proxy.pid), await cpuSeconds(upstreamPid)];
    if (!/callId "[^"]+"/.test(firstText(call.value))) {
      throw new Error(`no handle for ${bytes} bytes: ${firstText(call.value).slice(0, 500)}`);
    }
    const upstream = await upstreamStats(proxy.client);
    return {
      idleRssBytes,
      proxyPeakRssBytes,
      wallMilliseconds: call.milliseconds,
      proxyCpuSeconds: (cpuAfter[0] ?? 0) - (cpuBefore[0] ?? 0),
      upstreamCpuSeconds: (cpuAfter[1] ?? 0) - (cpuBefore[1] ?? 0),
      upstreamPeakRssBytes: upstream.peakRssBytes,
      upstreamBuildMilliseconds: upstream.lastBuildMilliseconds,
    };
  } finally {
    await proxy.close();
  }
}

const goalColumns: TableColumn<GoalRow>[] = [
  { title: 'measure', align: 'left', value: (row) => row.operation },
  { title: 'goal', align: 'left', value: (row) => row.goal },
  { title: 'measured', align: 'left', value: (row) => row.measured },
  { title: 'of goal', align: 'right', value: (row) => `${(row.ratio * 100).toFixed(1)} %` },
  { title: 'met', align: 'left', value: (row) => (row.ratio <= 1 ? 'met' : 'NOT met') },
];

async function main(): Promise<void> {
  const options = parseOptions();
  ensureBuilt(repositoryRoot);
  const command = ['npm run bench:mcp', ...(process.argv.length > 2 ? ['--'] : [])]
    .concat(process.argv.slice(2))
    .join(' ');
  const loadBefore = loadAverage();
  const nodeStart = nodeStartMilliseconds();
  const storeDirectory = await mkdtemp(join(tmpdir(), 'spoolforge-mcp-bench-'));
  try {
    console.error(`tokens: ${options.textBytes / megabyte} MB through the proxy…`);
    const tokens = await measureTokens(storeDirectory, options.textBytes);
    const direct = await directOutcome(options.textBytes);
    console.error(`latency: ${options.calls} calls of small, direct and proxied…`);
    const latency = await measureLatency(storeDirectory, options.calls);
    console.error(`peak RSS: ${options.bigBytes / megabyte} MB through a fresh proxy…`);
    const big = await measureBigResult(storeDirectory, options.bigBytes);

    const addedP50 = latency.proxied.p50 - latency.direct.p50;
    const addedP95 = latency.proxied.p95 - latency.direct.p95;
    const rssGoalBytes = 2 * options.bigBytes + 128 * mebibyte;
    const mib = (bytes: number) => `${(bytes / mebibyte).toFixed(1)} MiB`;
    const ms = (milliseconds: number) => `${milliseconds.toFixed(2)} ms`;
    const textMb = `${options.textBytes / megabyte} MB`;
    const bigMb = `${options.bigBytes / megabyte} MB`;
    const goals: GoalRow[] = [
      {
        operation: `handle for a ${textMb} result`,
        goal: `≤ ${handleTokenGoal} tokens`,
        measured: `${tokens.handleTokens} tokens; all content as JSON ${tokens.receivedTokens} (inline: ${tokens.inlineTokens.toLocaleString('en-US')}, ${Math.round(tokens.inlineTokens / tokens.receivedTokens).toLocaleString('en-US')}× more)`,
        ratio: tokens.handleTokens / handleTokenGoal,
      },
      {
        operation: 'added latency, small result',
        goal: `p50 < ${addedLatencyGoal} ms`,
        measured: `p50 +${ms(addedP50)}, p95 +${ms(addedP95)} (direct ${ms(latency.direct.p50)} / ${ms(latency.direct.p95)}, proxied ${ms(latency.proxied.p50)} / ${ms(latency.proxied.p95)})`,
        ratio: addedP50 / addedLatencyGoal,
      },
      {
        operation: `proxy peak RSS, ${bigMb} result`,
        goal: `< 2 × ${bigMb} + 128 MiB = ${mib(rssGoalBytes)}`,
        measured: `${mib(big.proxyPeakRssBytes)} (idle ${mib(big.idleRssBytes)}; upstream ${mib(big.upstreamPeakRssBytes)})`,
        ratio: big.proxyPeakRssBytes / rssGoalBytes,
      },
    ];
    const bigSeconds = big.wallMilliseconds / 1000;
    const notes = [
      `command: ${command}`,
      `proxy: node ${cliPath.replace(`${repositoryRoot}/`, '')} mcp --store TMP -- node --import tsx bench/mcp/children/upstream-server.ts; client: the SDK's Client over StdioClientTransport`,
      `tokens: o200k_base, counted exactly (countTextTokens) on the handle (the result's text part), on JSON.stringify(result.content) (${tokens.receivedBytes} bytes: the handle and the resource_link) and on the ${textMb} text (${(tokens.inlineCountMilliseconds / 1000).toFixed(1)} s to count)`,
      `the ${textMb} result called directly, without the proxy: ${direct}`,
      `latency: ${latency.proxied.calls} sequential calls of small on each side after ${warmUpCalls} warm-up calls, alternating direct and proxied; added = proxied percentile − direct percentile`,
      `${bigMb} call: ${bigSeconds.toFixed(2)} s wall = ${(options.bigBytes / megabyte / bigSeconds).toFixed(1)} MB/s, CPU time during the call: proxy ${big.proxyCpuSeconds.toFixed(2)} s, upstream ${big.upstreamCpuSeconds.toFixed(2)} s (of which building the text ${ms(big.upstreamBuildMilliseconds)}); peak RSS from /proc/PID/status VmHWM of the proxy (a fresh one, read after the call), the upstream's from its own resourceUsage().maxRSS`,
      `machine: ${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} CPUs, ${mib(totalmem())}; Node ${process.version}; node -e 0: ${nodeStart.toFixed(0)} ms`,
      `load average (1, 5, 15 min) before: ${loadBefore}, after: ${loadAverage()}`,
    ];
    console.log(`\nspoolforge mcp benchmark, ${new Date().toISOString()}\n`);
    console.log(renderTable(goalColumns, goals));
    console.log(`\n${notes.map((note) => `- ${note}`).join('\n')}`);
    console.log(`\nwhat the client received:\n${JSON.stringify(tokens.content, null, 1)}`);
    const date = new Date().toISOString().slice(0, 19).replaceAll(':', '-');
    const resultsPath = join(resultsDirectory, `mcp-${date}.json`);
    await writeResults(resultsPath, {
      date: new Date().toISOString(),
      options,
      machine: { cpu: cpus()[0]?.model, cpus: cpus().length, memoryBytes: totalmem() },
      node: process.version,
      nodeStartMilliseconds: nodeStart,
      goals,
      tokens,
      direct,
      latency,
      big,
      notes,
    });
    console.log(`\nresults: ${resultsPath}`);
  } finally {
    await rm(storeDirectory, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
