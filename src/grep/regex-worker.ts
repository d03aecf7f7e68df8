// Runs one grep's regular expression off the main thread, so a catastrophic pattern can be
// stopped by terminating this worker (a catastrophic regex cannot hold the caller). Loaded by regex-line-matcher.ts.
import { parentPort, workerData } from 'node:worker_threads';
import { regexMatchingLines } from './regex-lines.js';

interface Request {
  /** Which of the matcher's two shared buffers holds the block. */
  slot: number;
  /** That buffer, sent when it is new. */
  buffer?: SharedArrayBuffer;
  length: number;
}

const { source, flags } = workerData as { source: string; flags: string };
const regex = new RegExp(source, flags);
const slots: Buffer[] = [];

parentPort?.on('message', (request: Request) => {
  if (request.buffer) slots[request.slot] = Buffer.from(request.buffer);
  const block = (slots[request.slot] as Buffer).subarray(0, request.length);
  const result = Uint32Array.from(regexMatchingLines(regex, block));
  parentPort?.postMessage(result, [result.buffer]);
});
