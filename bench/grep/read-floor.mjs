// The floor of a Node scan: `node bench/grep/read-floor.mjs FILE [LITERAL]` reads FILE 1 MiB at a
// time into one reused buffer with readSync (what spoolforge's grep does), and with LITERAL counts
// the lines holding it with Buffer.indexOf, jumping to the next line after each hit; it prints
// the count. Whatever spoolforge does on top of this loop, it cannot be faster than it on one
// thread: the floor a miss is measured against (see docs/performance.md).
import { closeSync, openSync, readSync } from 'node:fs';

const [path, literal] = process.argv.slice(2);
if (!path) throw new Error('usage: node bench/grep/read-floor.mjs FILE [LITERAL]');
const needle = literal === undefined ? undefined : Buffer.from(literal);
const buffer = Buffer.allocUnsafe(1024 * 1024);
const fd = openSync(path, 'r');
let carry = 0;
let count = 0;
for (;;) {
  const read = readSync(fd, buffer, carry, buffer.length - carry, null);
  const end = carry + read;
  if (end === 0) break;
  // Whole lines only: the partial last line moves to the front for the next read.
  const last = read === 0 ? end : buffer.lastIndexOf(10, end - 1) + 1 || end;
  if (needle) {
    for (let at = buffer.indexOf(needle, 0); at !== -1 && at < last; ) {
      count++;
      const lineEnd = buffer.indexOf(10, at);
      if (lineEnd === -1 || lineEnd >= last) break;
      at = buffer.indexOf(needle, lineEnd + 1);
    }
  }
  carry = end - last;
  buffer.copy(buffer, 0, last, end);
  if (read === 0) break;
}
closeSync(fd);
console.log(count);
