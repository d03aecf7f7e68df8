/**
 * Receives one big text result through `StdioUpstreamTransport` and reports the time, the
 * parse rate and this process's peak RSS. The upstream is a child that streams a JSON-RPC
 * response of `megabytes` MB of escaped log lines without building it first, so the time is the
 * transport's. Run alone: `tsx bench/mcp/transport-probe.ts [MB]` (one fresh process, so the
 * RSS is the transport's); or call {@link probeTransport}.
 */
import { fileURLToPath } from 'node:url';
import { SpilledValues } from '../../src/mcp/upstream/spilled-values.js';
import { StdioUpstreamTransport } from '../../src/mcp/upstream/stdio-upstream-transport.js';

/** The child: one response line whose text is `megabytes` MB, written with backpressure. */
const emitter = `
const megabytes = Number(process.argv[1]);
const line = 'INFO worker 17 "request done" in 12 ms\\t' + 'x'.repeat(50) + '\\n';
const block = Buffer.from(JSON.stringify(line.repeat(Math.ceil(65536 / line.length))).slice(1, -1));
let left = Math.ceil((megabytes * 1e6) / block.length);
process.stdout.write('{"result":{"content":[{"type":"text","text":"');
const pump = () => {
  while (left > 0) {
    left -= 1;
    if (!process.stdout.write(block)) return process.stdout.once('drain', pump);
  }
  process.stdout.write('"}]},"jsonrpc":"2.0","id":1}\\n');
};
pump();
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
`;

/**
 * What {@link probeTransport} measured.
 *
 * @example
 * ```ts
 * const { megabytesPerSecond }: TransportProbe = await probeTransport({ megabytes: 200 });
 * ```
 */
export interface TransportProbe {
  /** Bytes of the decoded text that went to the spool. */
  spilledBytes: number;
  seconds: number;
  megabytesPerSecond: number;
  /** CPU time of this process (user + system) while receiving: the transport's own cost. */
  cpuSeconds: number;
  /** Peak resident set of this process, in MiB. */
  peakRssMebibytes: number;
}

/**
 * Receives a `megabytes` MB text result through the transport and measures it.
 *
 * @example
 * ```ts
 * console.log(await probeTransport({ megabytes: 200 }));
 * ```
 */
export async function probeTransport(options: { megabytes: number }): Promise<TransportProbe> {
  const spilled = new SpilledValues();
  const transport = new StdioUpstreamTransport({
    command: process.execPath,
    args: ['-e', emitter, String(options.megabytes)],
    spilled,
    stderr: 'inherit',
  });
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const received = new Promise<unknown>((resolve, reject) => {
    transport.onmessage = resolve;
    transport.onerror = reject;
  });
  await transport.start();
  const message = (await received) as { result: { content: { text: string }[] } };
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const value = spilled.take(message.result.content[0]?.text ?? '');
  const spilledBytes = value?.byteLength ?? 0;
  await value?.release();
  await transport.close();
  return {
    spilledBytes,
    seconds,
    megabytesPerSecond: spilledBytes / 1e6 / seconds,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    peakRssMebibytes: process.resourceUsage().maxRSS / 1024,
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const megabytes = Number(process.argv[2] ?? 200);
  console.log(JSON.stringify(await probeTransport({ megabytes })));
}
