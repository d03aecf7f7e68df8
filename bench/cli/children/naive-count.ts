/**
 * The naive Node approach to `grep -c`: readline over a read stream, a RegExp test per line.
 * Run as `node naive-count.mjs FILE PATTERN`; prints the count as `grep -c` does.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

const [path, pattern] = process.argv.slice(2);
if (path === undefined || pattern === undefined) {
  process.stderr.write('usage: naive-count FILE PATTERN\n');
  process.exit(2);
}
const regex = new RegExp(pattern);
let count = 0;
for await (const line of createInterface({ input: createReadStream(path), crlfDelay: Infinity })) {
  if (regex.test(line)) count++;
}
process.stdout.write(`${count}\n`);
