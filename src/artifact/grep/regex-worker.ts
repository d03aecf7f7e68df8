// Runs one grep's regular expression off the main thread, so a catastrophic pattern can be
// stopped by terminating this worker (DESIGN: regex safety). Loaded by regex-line-matcher.ts.
import { parentPort, workerData } from 'node:worker_threads';

interface Request {
  buffer?: SharedArrayBuffer;
  length: number;
}

const { source, flags } = workerData as { source: string; flags: string };
const regex = new RegExp(source, flags);
/**
 * Text is decoded a slice at a time: strings this small die young in V8's nursery, where a
 * whole 4 MiB block would land in large-object space and pile up until a full GC.
 */
const sliceBytes = 64 * 1024;
let shared: Buffer = Buffer.alloc(0);

parentPort?.on('message', (request: Request) => {
  if (request.buffer) shared = Buffer.from(request.buffer);
  const bytes = shared.subarray(0, request.length);
  const starts: number[] = [];
  for (let sliceStart = 0; sliceStart < bytes.length; ) {
    const newlineAfter = bytes.indexOf(0x0a, Math.min(bytes.length, sliceStart + sliceBytes));
    const sliceEnd = newlineAfter === -1 ? bytes.length : newlineAfter + 1;
    matchSlice(bytes, sliceStart, sliceEnd, starts);
    sliceStart = sliceEnd;
  }
  const result = Uint32Array.from(starts);
  parentPort?.postMessage(result, [result.buffer]);
});

/** Pushes the byte offsets of the matching lines of `bytes[start, end)`, which holds whole lines. */
function matchSlice(bytes: Buffer, start: number, end: number, starts: number[]): void {
  const text = bytes.toString('utf8', start, end);
  // Equal lengths mean one character per byte (ASCII, or single invalid bytes as U+FFFD), so
  // text positions are byte positions; otherwise walk the bytes' newlines alongside: `\n` is
  // never part of a multi-byte sequence, so the k-th newline of each is the same.
  const oneToOne = text.length === end - start;
  let textStart = 0;
  let byteStart = start;
  while (textStart < text.length) {
    let textEnd = text.indexOf('\n', textStart);
    if (textEnd === -1) textEnd = text.length;
    if (regex.test(text.slice(textStart, textEnd)))
      starts.push(oneToOne ? start + textStart : byteStart);
    textStart = textEnd + 1;
    if (!oneToOne) {
      const byteEnd = bytes.indexOf(0x0a, byteStart);
      byteStart = byteEnd === -1 ? end : byteEnd + 1;
    }
  }
}
