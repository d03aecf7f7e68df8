/**
 * Measures the library API in a process of its own, so its peak RSS is the library's:
 * `spool(createReadStream(FILE))`, then `grep(PATTERN, { count: true })` and `tail(N)` on the
 * spooled artifact. Run as `node spool-api.mjs DIST_INDEX FILE PATTERN N`; prints one JSON
 * {@link SpoolApiReport}.
 */
import { createReadStream } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

/** What the child prints. `peakRssBytes` are cumulative peaks after each phase. */
export interface SpoolApiReport {
  bytes: number;
  lines: number;
  spoolSeconds: number;
  grepSeconds: number;
  tailSeconds: number;
  matchCount: number;
  /** The tail's lines, each with its `\n`, to compare with GNU `tail`. */
  tailText: string;
  peakRssBytes: { spool: number; grep: number; tail: number };
}

const [distIndexPath, path, pattern, tailLines] = process.argv.slice(2);
if (!distIndexPath || !path || !pattern || !tailLines) {
  process.stderr.write('usage: spool-api DIST_INDEX FILE PATTERN N\n');
  process.exit(2);
}
// Loaded by path so the compiled script runs from anywhere against the built library.
const library = (await import(
  pathToFileURL(distIndexPath).href
)) as typeof import('../../../src/index.js');
// maxRSS is in KiB on Linux and macOS.
const peakRss = () => process.resourceUsage().maxRSS * 1024;

let start = performance.now();
const artifact = await library.spool(createReadStream(path));
const spoolSeconds = (performance.now() - start) / 1000;
const afterSpool = peakRss();

start = performance.now();
const { matchCount } = await artifact.grep(pattern, { count: true });
const grepSeconds = (performance.now() - start) / 1000;
const afterGrep = peakRss();

start = performance.now();
const tail = await artifact.tail(Number(tailLines));
const tailSeconds = (performance.now() - start) / 1000;
const afterTail = peakRss();

const report: SpoolApiReport = {
  bytes: await artifact.byteLength(),
  lines: await artifact.lineCount(),
  spoolSeconds,
  grepSeconds,
  tailSeconds,
  matchCount,
  tailText: tail.map((line) => `${line.text}\n`).join(''),
  peakRssBytes: { spool: afterSpool, grep: afterGrep, tail: afterTail },
};
await artifact.close();
process.stdout.write(`${JSON.stringify(report)}\n`);
