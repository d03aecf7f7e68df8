// Builds the line index of one line-aligned part of a file, offsets counted from the part's
// start; parallel-line-index.ts joins the parts. Loaded as a worker thread.
import { parentPort, workerData } from 'node:worker_threads';
import { FileSpoolReader } from './file-spool-reader.js';
import { LineIndex } from './line-index.js';
import { workerFailure } from './parallel-ranges.js';
import { readerChunks } from './reader-chunks.js';

const { path, start, end, stride } = workerData as {
  path: string;
  start: number;
  end: number;
  stride: number;
};

async function indexPart() {
  const reader = new FileSpoolReader(path);
  try {
    const index = new LineIndex({ stride });
    for await (const chunk of readerChunks(reader, {
      start,
      end,
      reuseBuffers: true,
      countInPlace: true,
    })) {
      index.append(chunk);
    }
    return index.snapshot();
  } finally {
    await reader.close();
  }
}

indexPart().then(
  (snapshot) => parentPort?.postMessage(snapshot),
  (error: unknown) => parentPort?.postMessage(workerFailure(error)),
);
