/**
 * The naive Node approach to a JSON array: `JSON.parse(readFileSync(FILE, 'utf8'))`, then
 * `.length` or `.filter(status >= 500).length`. Past V8's string limit (~512 MiB) the read
 * throws, which is the point of the comparison. Run as `node naive-json.mjs FILE OPERATION`
 * (`length` or `filter-count`); prints `{ "seconds": …, "count": …, "peakRssBytes": … }`.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const [path, operation] = process.argv.slice(2);
if (!path || (operation !== 'length' && operation !== 'filter-count')) {
  process.stderr.write('usage: naive-json FILE length|filter-count\n');
  process.exit(2);
}
const start = performance.now();
const records = JSON.parse(readFileSync(path, 'utf8')) as { status?: number }[];
const count =
  operation === 'length'
    ? records.length
    : records.filter((record) => (record.status ?? 0) >= 500).length;
const seconds = (performance.now() - start) / 1000;
// maxRSS is in KiB on Linux and macOS.
const peakRssBytes = process.resourceUsage().maxRSS * 1024;
process.stdout.write(`${JSON.stringify({ seconds, count, peakRssBytes })}\n`);
