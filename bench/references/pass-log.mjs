// The log half of the references bench, run by main.ts in a plain `node` process so that what
// it measures is what a user's process would peak at: no tsx (its loader thread alone adds
// ~60 MiB), nothing loaded but what the path loads. Plain JavaScript for the same reason.
// With --lines it passes lines 2 to the end instead (a view of the spool, read in place).
// With --floor it only writes what the producing tool yields to a temp file with writeSync,
// nothing of spoolforge's in between: the peak that the tool's own fresh chunks and V8 cost
// (dead chunks are freed by young-generation GCs, which external memory sets off only every
// few tens of MiB).
// With --reuse the tool refills one buffer instead of yielding a fresh one per MiB.
// Usage: node bench/references/pass-log.mjs <bytes> [--lines | --floor] [--reuse]; prints one
// JSON line.
import { createHash } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const mebibyte = 1024 * 1024;
const rss = () => process.memoryUsage().rss;
const atStart = rss();
const { z } = await import('zod');
const { readerChunks } = await import('../../dist/engine.js');
const { artifactArgument, defineTool, ToolSession } = await import('../../dist/index.js');
const afterImports = rss();
const size = Number(process.argv[2]);
const linesOnly = process.argv.includes('--lines');
const reuse = process.argv.includes('--reuse');
const reused = Buffer.allocUnsafe(mebibyte);
let peak = afterImports;
const sampler = setInterval(() => {
  peak = Math.max(peak, rss());
}, 20);

/** 1 MiB of log lines built once; each block's first line is stamped with its number. */
const template = (() => {
  const lines = [];
  for (let n = 0, bytes = 0; bytes < mebibyte; n++) {
    const line = `2026-11-28T08:00:00Z INFO block 0000000 line ${n} ${'x'.repeat(40)}\n`;
    lines.push(line);
    bytes += line.length;
  }
  return Buffer.from(lines.join('')).subarray(0, mebibyte);
})();
const stampAt = template.indexOf('0000000');
const firstLineBytes = template.indexOf(10) + 1;

/** What the tool should read: the log, or with --lines all but its first line and a final `\n`. */
const produced = createHash('sha256');
let expectedBytes = 0;
let held;
const produceLog = defineTool({
  name: 'produce_log',
  description: 'Streams the build log.',
  inputSchema: z.object({}),
  handler: async function* () {
    for (let written = 0; written < size; written += mebibyte) {
      const length = Math.min(mebibyte, size - written);
      const chunk = reuse
        ? reused.subarray(0, template.copy(reused, 0, 0, length))
        : Buffer.from(template.subarray(0, length));
      chunk.write(
        String(written / mebibyte)
          .padStart(7, '0')
          .slice(-7),
        stampAt,
      );
      if (!linesOnly) produced.update(chunk);
      else {
        if (held !== undefined) produced.update(held);
        produced.update(chunk.subarray(written === 0 ? firstLineBytes : 0, -1));
        // A reused chunk is refilled: its last byte is copied.
        held = reuse ? Buffer.from(chunk.subarray(-1)) : chunk.subarray(-1);
      }
      expectedBytes += chunk.length;
      yield chunk;
    }
  },
});
let read = '';
let readBytes = 0;
const uploadLog = defineTool({
  name: 'upload_log',
  description: 'Uploads a log.',
  inputSchema: z.object({ log: artifactArgument() }),
  handler: async ({ log }, { signal }) => {
    const hash = createHash('sha256');
    // Two recycled buffers, as docs/artifact-references.md shows: nothing allocated per chunk.
    for await (const chunk of readerChunks(log.reader, { signal, reuseBuffers: true })) {
      hash.update(chunk);
      readBytes += chunk.length;
    }
    read = hash.digest('hex');
    return `uploaded ${readBytes} bytes`;
  },
});
if (process.argv.includes('--floor')) {
  const directory = mkdtempSync(join(tmpdir(), 'pass-log-floor-'));
  const file = openSync(join(directory, 'log'), 'w');
  let position = 0;
  try {
    for await (const chunk of produceLog.handler({}, {})) {
      position += writeSync(file, chunk, 0, chunk.length, position);
      // As the spool's writer does: a turn of the event loop every 8 MiB.
      if (position % (8 * mebibyte) === 0) await new Promise((resolve) => setImmediate(resolve));
    }
  } finally {
    closeSync(file);
    rmSync(directory, { recursive: true, force: true });
  }
  clearInterval(sampler);
  const peakRss = Math.max(peak, rss());
  console.log(JSON.stringify({ written: position, rss: { atStart, afterImports, peak: peakRss } }));
  process.exit(0);
}
const session = new ToolSession({ tools: [produceLog, uploadLog] });
const first = session.dispatch();
first.ack();
const cpu = process.cpuUsage();
await session.run([{ id: 'call_log', name: 'produce_log', arguments: {} }], first);
const spoolCpu = process.cpuUsage(cpu);
const afterSpool = rss();
const second = session.dispatch();
second.ack();
const log = linesOnly ? { $artifact: 'call_log', lines: '2-999999999' } : { $artifact: 'call_log' };
const [outcome] = await session.run(
  [{ id: 'call_up', name: 'upload_log', arguments: { log } }],
  second,
);
if (linesOnly) {
  expectedBytes -= firstLineBytes;
  if (held?.[0] === 10) expectedBytes--;
  else if (held !== undefined) produced.update(held);
}
clearInterval(sampler);
await session[Symbol.asyncDispose]();
console.log(
  JSON.stringify({
    result: outcome?.content.map((part) => (part.type === 'text' ? part.text : '')).join(''),
    readBytes,
    expectedBytes,
    sha256Equal: read === produced.digest('hex'),
    spoolCpuSeconds: (spoolCpu.user + spoolCpu.system) / 1e6,
    rss: { atStart, afterImports, afterSpool, peak: Math.max(peak, rss()) },
    maxRss: process.resourceUsage().maxRSS * 1024,
  }),
);
