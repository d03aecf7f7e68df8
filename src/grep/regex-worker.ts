// Runs grep regular expressions off the main thread, so a catastrophic pattern can be stopped
// by terminating this worker (a catastrophic regex cannot hold the caller). A thread of
// regex-worker-pool.ts, reused by one matcher (regex-line-matcher.ts) after another.
import { parentPort } from 'node:worker_threads';
import { regexMatchingLines } from './regex-lines.js';

interface Request {
  /** A new matcher's pattern, sent with its first block: its buffers replace the last one's. */
  regex?: { source: string; flags: string };
  /** Which of the matcher's two shared buffers holds the block. */
  slot: number;
  /** That buffer, sent when it is new. */
  buffer?: SharedArrayBuffer;
  length: number;
}

let regex = /(?:)/;
let slots: Buffer[] = [];

parentPort?.on('message', (request: Request) => {
  if (request.regex) {
    regex = new RegExp(request.regex.source, request.regex.flags);
    slots = [];
  }
  if (request.buffer) slots[request.slot] = Buffer.from(request.buffer);
  const block = (slots[request.slot] as Buffer).subarray(0, request.length);
  const result = Uint32Array.from(regexMatchingLines(regex, block));
  parentPort?.postMessage(result, [result.buffer]);
});
