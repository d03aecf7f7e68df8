// The floor of a Node scan: `node bench/grep/read-floor.mjs FILE [LITERAL | --regex PATTERN]`
// reads FILE 1 MiB at a time into one reused buffer with readSync (what spoolforge's grep does),
// and with LITERAL counts the lines holding it with Buffer.indexOf, jumping to the next line
// after each hit; with --regex, the lines V8's regex engine matches, run over each 1 MiB of whole
// lines at once, decoded as latin1 (a character per byte, the cheapest decoding), from each match
// on to the next line. It prints the count. Whatever spoolforge does on top of this loop, it
// cannot be faster than it on one thread: the floor a miss is measured against (see
// docs/performance.md).
import { closeSync, openSync, readSync } from 'node:fs';

const [path, literal, pattern] = process.argv.slice(2);
if (!path)
  throw new Error('usage: node bench/grep/read-floor.mjs FILE [LITERAL | --regex PATTERN]');
const regex = literal === '--regex' ? new RegExp(pattern, 'g') : undefined;
const needle = literal === undefined || regex ? undefined : Buffer.from(literal);
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
  if (regex) {
    const text = buffer.latin1Slice(0, last);
    regex.lastIndex = 0;
    for (let match = regex.exec(text); match; match = regex.exec(text)) {
      count++;
      const lineEnd = text.indexOf('\n', match.index);
      if (lineEnd === -1) break;
      regex.lastIndex = lineEnd + 1;
    }
  }
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
