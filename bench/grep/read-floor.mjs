// The floor of a Node scan: `node bench/grep/read-floor.mjs FILE [LITERAL | --regex PATTERN |
// --threads N]` reads FILE 1 MiB at a time into one reused buffer with readSync (what
// spoolforge's grep does), and with LITERAL counts the lines holding it with Buffer.indexOf,
// jumping to the next line after each hit; with --regex, the lines V8's regex engine matches, run
// over each 1 MiB of whole lines at once, decoded as latin1 (a character per byte, the cheapest
// decoding), from each match on to the next line. It prints the count. With --threads, N worker
// threads each read one Nth of the file and nothing else, as the parallel grep's parts do: the
// floor of a multi-threaded count. Whatever spoolforge does on top of these loops, it cannot be
// faster than them: the floor a miss is measured against (see docs/performance.md).
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { isMainThread, Worker, workerData } from 'node:worker_threads';

/**
 * 1 MiB on a page boundary: a resizable ArrayBuffer's memory is reserved by pages. The kernel's
 * copy into a buffer 16 bytes past one (where malloc puts a large block) runs at half speed on
 * AMD EPYC (docs/performance.md); the floor is the fastest loop, so it reads into aligned memory.
 */
const alignedMebibyte = () =>
  Buffer.from(new ArrayBuffer(1024 * 1024, { maxByteLength: 1024 * 1024 }));

const [path, literal, pattern] = isMainThread ? process.argv.slice(2) : [workerData.path];
if (!path) {
  throw new Error(
    'usage: node bench/grep/read-floor.mjs FILE [LITERAL | --regex PATTERN | --threads N]',
  );
}
if (literal === '--threads' && isMainThread) {
  const threads = Number(pattern);
  const descriptor = openSync(path, 'r');
  const { size } = fstatSync(descriptor);
  closeSync(descriptor);
  const parts = Array.from({ length: threads }, (_, index) => ({
    path,
    start: Math.floor((size * index) / threads),
    end: Math.floor((size * (index + 1)) / threads),
  }));
  await Promise.all(
    parts.map(
      (part) =>
        new Promise((resolve, reject) =>
          new Worker(new URL(import.meta.url), { workerData: part })
            .on('exit', resolve)
            .on('error', reject),
        ),
    ),
  );
  console.log(size);
  process.exit(0);
}
if (!isMainThread) {
  const { start, end } = workerData;
  const buffer = alignedMebibyte();
  const fd = openSync(path, 'r');
  for (let position = start; position < end; ) {
    const read = readSync(fd, buffer, 0, Math.min(buffer.length, end - position), position);
    if (read === 0) break;
    position += read;
  }
  closeSync(fd);
  process.exit(0);
}
const regex = literal === '--regex' ? new RegExp(pattern, 'g') : undefined;
const needle = literal === undefined || regex ? undefined : Buffer.from(literal);
const buffer = alignedMebibyte();
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
