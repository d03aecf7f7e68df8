/**
 * Token estimation bench: `npm run bench:tokens -- [--size 1G] [--prefix 64M]
 * [--encoding o200k_base]` (after `npm run build`). On the cached generated log, times exact
 * counting on a prefix (to get MiB/s) against sampling on the whole file, and prints the
 * sample's error against exact on the prefix, on the whole file when it is at most 256 MiB
 * (exact on more takes minutes), and peak RSS.
 */
import { parseArgs } from 'node:util';
import { approximateTokens, estimateTokens } from '../../dist/engine.js';
import { FileSpoolReader, MemorySpoolReader, type TokenEstimate } from '../../dist/index.js';
import { ensureLog, parseSize } from '../shared/generate-log.js';

const mebibyte = 1024 * 1024;
const largestExactWhole = 256 * mebibyte;
const sampledRuns = 3;

function parseOptions() {
  const { values } = parseArgs({
    options: {
      size: { type: 'string', default: '1G' },
      prefix: { type: 'string', default: '64M' },
      encoding: { type: 'string', default: 'o200k_base' },
    },
  });
  return {
    size: parseSize(values.size),
    prefix: parseSize(values.prefix),
    encoding: values.encoding,
  };
}

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; milliseconds: number }> {
  const start = performance.now();
  const value = await run();
  return { value, milliseconds: performance.now() - start };
}

function errorPercent(estimate: number, exact: number): string {
  const percent = ((estimate - exact) / exact) * 100;
  return `${percent >= 0 ? '+' : ''}${percent.toFixed(3)}%`;
}

function peakRss(): string {
  // maxRSS is in KiB on Linux and macOS.
  return `${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`;
}

function describe(estimate: TokenEstimate): string {
  return `${estimate.tokens.toLocaleString('en-US')} tokens (${estimate.method})`;
}

async function main(): Promise<void> {
  const { size, prefix: requestedPrefix, encoding } = parseOptions();
  const path = await ensureLog({ size });
  const reader = new FileSpoolReader(path);
  const byteLength = await reader.byteLength();
  const prefix = Math.min(requestedPrefix, byteLength);
  console.log(`log: ${path} (${(byteLength / mebibyte).toFixed(0)} MiB), encoding ${encoding}`);

  const load = await timed(() => estimateTokens(new MemorySpoolReader('warm up\n'), { encoding }));
  console.log(`tokenizer load (first use): ${load.milliseconds.toFixed(0)} ms`);

  for (let run = 1; run <= sampledRuns; run++) {
    const sampled = await timed(() => estimateTokens(reader, { encoding }));
    console.log(
      `sampled, whole file, run ${run}: ${describe(sampled.value)} ` +
        `in ${sampled.milliseconds.toFixed(0)} ms`,
    );
  }
  console.log(`peak RSS after sampling: ${peakRss()}`);

  const sampledPrefix = await estimateTokens(reader, { encoding, byteLength: prefix });
  const exactPrefix = await timed(() =>
    estimateTokens(reader, { encoding, byteLength: prefix, exactUpTo: Number.POSITIVE_INFINITY }),
  );
  const mebibytesPerSecond = prefix / mebibyte / (exactPrefix.milliseconds / 1000);
  console.log(
    `exact, ${(prefix / mebibyte).toFixed(0)} MiB prefix: ${describe(exactPrefix.value)} in ` +
      `${(exactPrefix.milliseconds / 1000).toFixed(1)} s = ` +
      `${mebibytesPerSecond.toFixed(1)} MiB/s ` +
      `(${(prefix / exactPrefix.value.tokens).toFixed(2)} bytes a token)`,
  );
  console.log(
    `prefix error: sampled ${errorPercent(sampledPrefix.tokens, exactPrefix.value.tokens)}, ` +
      `bytes/4 ${errorPercent(approximateTokens(prefix), exactPrefix.value.tokens)}`,
  );

  // The generator stops at the first line end past the size, so compare the size asked for.
  if (size <= largestExactWhole) {
    const sampled = await estimateTokens(reader, { encoding });
    const exact = await timed(() =>
      estimateTokens(reader, { encoding, exactUpTo: Number.POSITIVE_INFINITY }),
    );
    console.log(
      `exact, whole file: ${describe(exact.value)} in ${(exact.milliseconds / 1000).toFixed(1)} s`,
    );
    console.log(
      `whole-file error: sampled ${errorPercent(sampled.tokens, exact.value.tokens)}, ` +
        `bytes/4 ${errorPercent(approximateTokens(byteLength), exact.value.tokens)}`,
    );
  } else {
    const seconds = byteLength / mebibyte / mebibytesPerSecond;
    console.log(`exact, whole file: skipped (over 256 MiB); extrapolated ${seconds.toFixed(0)} s`);
  }
  console.log(`peak RSS: ${peakRss()}`);
  await reader.close();
}

await main();
