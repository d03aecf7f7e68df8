import { workerUrl } from '../shared/worker-url.js';
import { LineIndex, type LineIndexSnapshot } from './line-index.js';
import { fileParts, runInWorkers } from './parallel-ranges.js';

/**
 * Options for {@link buildLineIndexInParallel}.
 */
export interface ParallelIndexOptions {
  /** Worker threads, one per part. Default `defaultThreadCount()`. */
  threads?: number;
  stride?: number;
  signal?: AbortSignal;
}

/**
 * The line index of a whole file, built by worker threads over line-aligned parts and joined:
 * the same checkpoints' lines and offsets a single pass finds (only where the parts meet may
 * the spacing differ), in a fraction of the time on a multi-core machine.
 *
 * @example
 * ```ts
 * const index = await buildLineIndexInParallel('/var/log/huge.log');
 * index.lineCount;
 * ```
 */
export async function buildLineIndexInParallel(
  path: string,
  options: ParallelIndexOptions = {},
): Promise<LineIndex> {
  const { signal } = options;
  const stride = options.stride ?? LineIndex.defaultStride;
  const parts = await fileParts(path, { threads: options.threads, signal });
  const snapshots = await runInWorkers<LineIndexSnapshot>(
    workerUrl('spool/line-index-worker.js'),
    parts.map((range) => ({ path, stride, ...range })),
    signal ? { signal } : {},
  );
  return joinParts(parts, snapshots, stride);
}

/** Shifts each part's checkpoints by the bytes and lines before it. */
function joinParts(
  parts: readonly { start: number }[],
  snapshots: readonly LineIndexSnapshot[],
  stride: number,
): LineIndex {
  const joined: LineIndexSnapshot = {
    stride,
    byteLength: 0,
    newlineCount: 0,
    endsWithNewline: false,
    lines: [],
    offsets: [],
  };
  snapshots.forEach((snapshot, index) => {
    const start = parts[index]?.start ?? 0;
    // Every part starts a line, so each part's first checkpoint is a real one; it may repeat
    // the previous part's last (a checkpoint at that part's end).
    for (let checkpoint = 0; checkpoint < snapshot.lines.length; checkpoint++) {
      const line = (snapshot.lines[checkpoint] ?? 0) + joined.newlineCount;
      if (line <= (joined.lines.at(-1) ?? -1)) continue;
      joined.lines.push(line);
      joined.offsets.push((snapshot.offsets[checkpoint] ?? 0) + start);
    }
    joined.newlineCount += snapshot.newlineCount;
    joined.byteLength = start + snapshot.byteLength;
    joined.endsWithNewline = snapshot.endsWithNewline;
  });
  if (joined.lines.length === 0) {
    joined.lines.push(0);
    joined.offsets.push(0);
  }
  return LineIndex.fromSnapshot(joined);
}
