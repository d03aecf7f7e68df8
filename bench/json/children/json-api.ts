/**
 * Runs one JSON operation through the public API in a process of its own, so its peak RSS is
 * that operation's: `SpooledJsonArtifact.fromFile(FILE, { format })`, then `length()` (which
 * opens the document: the byte-offset index for a large JSON array, the record count for JSONL)
 * and, unless OPERATION is `length`, the operation itself, timed apart (`shape-end-to-end`: no
 * `length()` first, shape() opens the document and is timed with it). Run as
 * `node json-api.mjs DIST_INDEX FILE FORMAT OPERATION`; prints one JSON {@link JsonApiReport}.
 */
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

/** What the child prints; `answer` is what the parent checks against the generator's facts. */
export interface JsonApiReport {
  /** Seconds for `length()`, that is for opening the document. */
  openSeconds: number;
  /** Seconds for the operation after the open (equal to `openSeconds` for `length`). */
  seconds: number;
  /** 0 for `shape-end-to-end`, which does not count first. */
  entryCount: number;
  answer: {
    count: number;
    firstId?: number | undefined;
    lastId?: number | undefined;
    stopped?: string;
  };
  peakRssBytes: number;
}

/** The near-90 % slice reads this many entries. */
const sliceLength = 10;
const serverErrorFilter = '$[?(@.status >= 500)]';

const [distIndexPath, path, format, operation] = process.argv.slice(2);
if (!distIndexPath || !path || (format !== 'json' && format !== 'jsonl') || !operation) {
  process.stderr.write('usage: json-api DIST_INDEX FILE json|jsonl OPERATION\n');
  process.exit(2);
}
// Loaded by path so the compiled script runs from anywhere against the built library.
const library = (await import(
  pathToFileURL(distIndexPath).href
)) as typeof import('../../../src/index.js');
const { SpooledJsonArtifact } = library;

const artifact = SpooledJsonArtifact.fromFile(path, { format });
const idOf = (value: unknown) => (value as { id?: number } | undefined)?.id;

// shape() end to end opens the document itself, as a caller's first query does.
const opensFirst = operation !== 'shape-end-to-end';
let start = performance.now();
const entryCount = opensFirst ? await artifact.length() : 0;
const openSeconds = (performance.now() - start) / 1000;
let answer: JsonApiReport['answer'] = { count: entryCount };

start = performance.now();
if (operation === 'slice') {
  const first = Math.floor(entryCount * 0.9);
  const matches = await artifact.query(`$[${first}:${first + sliceLength}]`);
  answer = {
    count: matches.length,
    firstId: idOf(matches[0]?.value),
    lastId: idOf(matches.at(-1)?.value),
  };
} else if (operation === 'shape' || operation === 'shape-end-to-end') {
  const { scanned, stopped } = await artifact.shape();
  answer = { count: scanned, ...(stopped ? { stopped } : {}) };
} else if (operation === 'filter-first-100') {
  const matches = await artifact.query(serverErrorFilter, { limit: 100 });
  answer = { count: matches.length, lastId: idOf(matches.at(-1)?.value) };
} else if (operation === 'filter-count') {
  // Only the ids are kept, so memory measures the scan rather than the matches held.
  const matches = await artifact.query(`${serverErrorFilter}.id`, {
    limit: Number.MAX_SAFE_INTEGER,
  });
  answer = { count: matches.length };
} else if (operation === 'pluck') {
  const matches = await artifact.query('$[*].id', { limit: Number.MAX_SAFE_INTEGER });
  answer = { count: matches.length };
} else if (operation !== 'length') {
  throw new Error(`unknown operation ${operation}`);
}
const seconds = operation === 'length' ? openSeconds : (performance.now() - start) / 1000;

const report: JsonApiReport = {
  openSeconds,
  seconds,
  entryCount,
  answer,
  // maxRSS is in KiB on Linux and macOS.
  peakRssBytes: process.resourceUsage().maxRSS * 1024,
};
await artifact.close();
process.stdout.write(`${JSON.stringify(report)}\n`);
