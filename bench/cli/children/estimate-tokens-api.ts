/**
 * Times `estimateTokens()` (o200k_base) on a file read in place, in a process of its own so its
 * peak RSS is the estimate's: past 1 MiB the library samples 128 windows, so the time does not
 * grow with the size. The tokenizer's first load is included, as a first call pays it. Run as
 * `node estimate-tokens-api.mjs DIST_INDEX FILE`; prints one JSON {@link EstimateTokensReport}.
 */
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

/** What the child prints. */
export interface EstimateTokensReport {
  seconds: number;
  tokens: number;
  /** How the library counted: `exact`, `sampled` or `approximate`. */
  method: string;
  peakRssBytes: number;
}

const [distIndexPath, path] = process.argv.slice(2);
if (!distIndexPath || !path) {
  process.stderr.write('usage: estimate-tokens-api DIST_INDEX FILE\n');
  process.exit(2);
}
// Loaded by path so the compiled script runs from anywhere against the built library.
const library = (await import(
  pathToFileURL(distIndexPath).href
)) as typeof import('../../../src/index.js');

const artifact = new library.SpooledArtifact(new library.FileSpoolReader(path));
const start = performance.now();
const tokens = await artifact.estimateTokens();
const seconds = (performance.now() - start) / 1000;
// Cached by the call above: only says how it counted.
const { method } = await artifact.tokenEstimate();
const report: EstimateTokensReport = {
  seconds,
  tokens,
  method,
  // maxRSS is in KiB on Linux and macOS.
  peakRssBytes: process.resourceUsage().maxRSS * 1024,
};
await artifact.close();
process.stdout.write(`${JSON.stringify(report)}\n`);
