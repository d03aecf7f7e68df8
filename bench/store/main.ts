/**
 * The S3 store benchmark: `npm run bench:store -- [--size 1G] [--runs 3] [--results PATH]`.
 * Starts s3rver on 127.0.0.1 and times `put` of a generated log file (each run in a process
 * of its own, for its peak RSS) against a plain `@aws-sdk/lib-storage` `Upload` of the same
 * file with the same part size and queue (goal: put at most 1.2× the upload), then counts the
 * requests and bytes a `tail` of the stored artifact costs. Writes JSON to `bench/results/`.
 */
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startS3Server } from '../../spec/helpers/s3-server.js';
import { loadAverage, parseBenchOptions, runFacts } from '../shared/bench-options.js';
import { repositoryRoot, resultsDirectory } from '../shared/bench-paths.js';
import { ensureBuilt } from '../shared/ensure-built.js';
import { writeResults } from '../shared/report.js';

const run = promisify(execFile);
const mebibyte = 1024 * 1024;
const child = fileURLToPath(new URL('put-child.mjs', import.meta.url));
const s3Entry = join(repositoryRoot, 'dist', 'store', 's3', 'index.js');

interface PutRun {
  seconds: number;
  peakRssMebibytes: number;
  record?: { id: string };
}

/** Writes `size` bytes of log-like lines, 1 MiB at a time. */
async function writeLog(path: string, size: number): Promise<void> {
  const out = createWriteStream(path);
  const line = (n: number) =>
    `2025-01-01T00:00:00.${String(n % 1000).padStart(3, '0')}Z INFO service-${n % 7} request ${n} done in ${n % 997} ms\n`;
  let written = 0;
  let n = 0;
  while (written < size) {
    const lines: string[] = [];
    let bytes = 0;
    while (bytes < mebibyte && written + bytes < size) {
      const text = line(n++);
      lines.push(text);
      bytes += text.length;
    }
    const chunk = lines.join('');
    written += chunk.length;
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN;
};

async function main(): Promise<void> {
  const options = parseBenchOptions('1G');
  ensureBuilt(repositoryRoot);
  const directory = await mkdtemp(join(tmpdir(), 'spoolforge-bench-store-'));
  const s3 = await startS3Server();
  try {
    const file = join(directory, 'bench.log');
    await writeLog(file, options.size);
    const runs: Record<'spoolforge' | 'upload', PutRun[]> = { spoolforge: [], upload: [] };
    let prefix = '';
    let id = '';
    for (let index = 0; index < options.runs; index++) {
      for (const mode of ['upload', 'spoolforge'] as const) {
        prefix = `bench-${index}-${mode}/`;
        const { stdout } = await run(
          process.execPath,
          [child, mode, file, s3.endpoint, s3.bucket, prefix, s3Entry],
          { maxBuffer: 16 * mebibyte },
        );
        const measured = JSON.parse(stdout) as PutRun;
        if (measured.record) id = measured.record.id;
        runs[mode].push({ seconds: measured.seconds, peakRssMebibytes: measured.peakRssMebibytes });
      }
    }
    // The tail of the last stored artifact: what it costs in requests and bytes.
    const { openS3ArtifactStore } = (await import(
      s3Entry
    )) as typeof import('../../src/store/s3/index.js');
    const store = await openS3ArtifactStore({
      bucket: s3.bucket,
      prefix,
      clientConfig: s3.clientConfig,
    });
    const before = { requests: s3.requests.length, bytes: s3.bytesSent() };
    const artifact = await store.get(id); // by id: one GET of the sidecar, no listing
    await artifact.tail(20);
    await artifact.close();
    const requests = s3.requests.slice(before.requests);
    const tail = {
      requests: requests.length,
      dataRequests: requests.filter((request) => request.url.includes('.data')).length,
      bytes: s3.bytesSent() - before.bytes,
    };

    const put = median(runs.spoolforge.map((r) => r.seconds));
    const upload = median(runs.upload.map((r) => r.seconds));
    const ratio = put / upload;
    const rss = (mode: 'spoolforge' | 'upload') =>
      Math.max(...runs[mode].map((r) => r.peakRssMebibytes));
    console.log(
      `\nS3 store: ${(options.size / mebibyte).toFixed(0)} MiB to s3rver on 127.0.0.1, ${options.runs} runs, load ${loadAverage()}\n`,
    );
    console.log(
      `plain Upload      ${upload.toFixed(2)} s median, peak RSS ${rss('upload').toFixed(0)} MiB`,
    );
    console.log(
      `store.put         ${put.toFixed(2)} s median, peak RSS ${rss('spoolforge').toFixed(0)} MiB`,
    );
    console.log(
      `ratio             ${ratio.toFixed(2)}× (goal ≤ 1.2×: ${ratio <= 1.2 ? 'met' : 'not met'})`,
    );
    console.log(
      `get + tail(20)    ${tail.requests} requests (${tail.dataRequests} of the data), ${(tail.bytes / 1024).toFixed(0)} KiB`,
    );
    const date = new Date().toISOString().replace(/[:.]/g, '-');
    const resultsPath =
      options.resultsPath ?? join(resultsDirectory, `store-${options.sizeLabel}-${date}.json`);
    await writeResults(resultsPath, {
      size: options.size,
      runs: options.runs,
      ...runFacts(),
      put: runs,
      ratio,
      tail,
    });
    console.log(`\nresults: ${resultsPath}`);
  } finally {
    await s3.close();
    await rm(directory, { recursive: true, force: true });
  }
}

await main();
