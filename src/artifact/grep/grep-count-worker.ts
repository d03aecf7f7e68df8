// Counts the selected lines of one line-aligned part of a file for `grep -c`;
// parallel-grep-count.ts adds the parts up. Loaded as a worker thread.
import { parentPort, workerData } from 'node:worker_threads';
import { FileSpoolReader } from '../../spool/file-spool-reader.js';
import { workerFailure } from '../../spool/parallel-ranges.js';
import { readerChunks } from '../../spool/reader-chunks.js';
import { compileMatcher, type PatternOptions } from './compile-matcher.js';
import { grepScan } from './grep-scan.js';

const { path, start, end, pattern, patternOptions, invert } = workerData as {
  path: string;
  start: number;
  end: number;
  pattern: string;
  patternOptions: Pick<PatternOptions, 'fixed' | 'ignoreCase'>;
  invert: boolean;
};

async function countPart(): Promise<number> {
  const reader = new FileSpoolReader(path);
  const matcher = compileMatcher(pattern, patternOptions);
  try {
    const chunks = readerChunks(reader, { start, end, reuseBuffers: true });
    const { matchCount } = await grepScan(
      chunks,
      { matcher, invert, countOnly: true },
      { line: () => true, separator: () => undefined },
    );
    return matchCount;
  } finally {
    await matcher.dispose();
    await reader.close();
  }
}

countPart().then(
  (count) => parentPort?.postMessage(count),
  (error: unknown) => parentPort?.postMessage(workerFailure(error)),
);
