// Runs one grep's regular expression off the main thread, so a catastrophic pattern can be
// stopped by terminating this worker (a catastrophic regex cannot hold the caller). Loaded by regex-line-matcher.ts.
import { parentPort, workerData } from 'node:worker_threads';
import { regexMatchingLines } from './regex-lines.js';

interface Request {
  buffer?: SharedArrayBuffer;
  length: number;
}

const { source, flags } = workerData as { source: string; flags: string };
const regex = new RegExp(source, flags);
let shared: Buffer = Buffer.alloc(0);

parentPort?.on('message', (request: Request) => {
  if (request.buffer) shared = Buffer.from(request.buffer);
  const result = Uint32Array.from(regexMatchingLines(regex, shared.subarray(0, request.length)));
  parentPort?.postMessage(result, [result.buffer]);
});
