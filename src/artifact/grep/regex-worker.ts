// Runs one grep's regular expression off the main thread, so a catastrophic pattern can be
// stopped by terminating this worker (DESIGN: regex safety). Loaded by regex-line-matcher.ts.
import { parentPort, workerData } from 'node:worker_threads';

interface Request {
  buffer?: SharedArrayBuffer;
  length: number;
}

const { source, flags } = workerData as { source: string; flags: string };
const regex = new RegExp(source, flags);
let shared: Buffer = Buffer.alloc(0);

parentPort?.on('message', (request: Request) => {
  if (request.buffer) shared = Buffer.from(request.buffer);
  const bytes = shared.subarray(0, request.length);
  // `\n` is ASCII and never replaced, so the k-th newline of the text is the k-th of the bytes.
  const text = bytes.toString('utf8');
  const starts: number[] = [];
  let textStart = 0;
  let byteStart = 0;
  while (textStart < text.length) {
    let textEnd = text.indexOf('\n', textStart);
    if (textEnd === -1) textEnd = text.length;
    if (regex.test(text.slice(textStart, textEnd))) starts.push(byteStart);
    textStart = textEnd + 1;
    const byteEnd = bytes.indexOf(0x0a, byteStart);
    byteStart = byteEnd === -1 ? bytes.length : byteEnd + 1;
  }
  const result = Uint32Array.from(starts);
  parentPort?.postMessage(result, [result.buffer]);
});
