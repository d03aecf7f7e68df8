// Greps one line-aligned part of a file and posts the lines to print, in batches, for
// parallel-grep-scan.ts to write in part order. Loaded as a worker thread.
import { parentPort, workerData } from 'node:worker_threads';
import { writeFullySync } from '../spool/file-io.js';
import { FileSpoolReader } from '../spool/file-spool-reader.js';
import { countNewlines } from '../spool/newlines.js';
import { workerFailure } from '../spool/parallel-ranges.js';
import { readerChunks } from '../spool/reader-chunks.js';
import { tailOffset } from '../spool/tail-offset.js';
import { compileMatcher } from './compile-matcher.js';
import { batchBytes, GrepRecordWriter } from './grep-line-records.js';
import { grepReadOptions, grepScan } from './grep-scan.js';
import { type PartScanFlags, partScanOptions } from './part-scan-options.js';

/**
 * What one worker greps: a part of a file and the grep flags.
 */
export interface GrepPartTask extends PartScanFlags {
  path: string;
  start: number;
  end: number;
  /** Posted bytes not yet acknowledged above which the worker waits for the main thread. */
  creditBytes: number;
  /**
   * A file (an open descriptor of the process) to write batches to instead of waiting for
   * credit, up to `spillBytes` in all; the main thread reads them back in turn.
   */
  spillFd: number | undefined;
  spillBytes: number;
  /** Batches are the printed text itself (each selected line and `\n`), not records. */
  plain: boolean;
}

/**
 * What a worker posts: batches of records (line numbers relative to its part's first line),
 * then its totals once.
 *
 * @example
 * ```ts
 * worker.on('message', (message: GrepPartMessage) => void ('done' in message && console.log(message.done)));
 * ```
 */
export type GrepPartMessage =
  | { records: Uint8Array; recordCount: number; scanned: number }
  | { spilled: { position: number; length: number }; recordCount: number; scanned: number }
  | { done: { selected: number; lineCount: number } };

const task = workerData as GrepPartTask;
const writer = new GrepRecordWriter({ plain: task.plain });
let unacknowledged = 0;
let wake: (() => void) | undefined;
// The main thread sends each batch's buffer back once it wrote it.
parentPort?.on('message', (written: ArrayBuffer) => {
  unacknowledged -= written.byteLength;
  writer.recycle(written);
  wake?.();
});

async function scanPart(): Promise<GrepPartMessage> {
  const reader = new FileSpoolReader(task.path);
  // This thread is the regex's sandbox: the main thread terminates it on abort.
  const matcher = compileMatcher(task.pattern, { ...task.patternOptions, inThread: true });
  try {
    // The lines just before the part: their matches' after-context and the before-context of
    // the part's first matches. The main thread drops the lines another part printed.
    const leading = task.tracksLines && !task.countOnly ? Math.max(task.before, task.after) : 0;
    const scanStart =
      leading > 0 && task.start > 0
        ? await tailOffset(reader, leading, { end: task.start })
        : task.start;
    let leadingLines = 0;
    for await (const chunk of readerChunks(reader, { start: scanStart, end: task.start })) {
      leadingLines += countNewlines(chunk);
    }
    let lastPost = Date.now();
    let spilledBytes = 0;
    const post = async (scanned: number) => {
      const { recordCount } = writer;
      const records = writer.take();
      lastPost = Date.now();
      if (
        unacknowledged + records.buffer.byteLength > task.creditBytes &&
        spill(records, spilledBytes)
      ) {
        const spilled = { position: spilledBytes, length: records.length };
        spilledBytes += records.length;
        writer.recycle(records.buffer as ArrayBuffer);
        parentPort?.postMessage({ spilled, recordCount, scanned } satisfies GrepPartMessage);
        return;
      }
      unacknowledged += records.buffer.byteLength;
      const message: GrepPartMessage = { records, recordCount, scanned };
      parentPort?.postMessage(message, [records.buffer as ArrayBuffer]);
      while (unacknowledged > task.creditBytes) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
    };
    let selected = 0;
    let lastToPrint = Number.POSITIVE_INFINITY;
    const { matchCount, nextLineNumber } = await grepScan(
      readerChunks(reader, { ...grepReadOptions, start: scanStart, end: task.end }),
      {
        matcher,
        ...partScanOptions(task),
        firstLineNumber: -leadingLines,
        onProgress: async (scanned) => {
          // A rare match still reaches the output soon; frequent ones go in full batches.
          if (writer.size >= batchBytes || (writer.size > 0 && Date.now() - lastPost > 50)) {
            await post(scanned);
          }
        },
      },
      {
        line(bytes, lineNumber, isSelected) {
          // Plain -o output of a line without a non-empty match (`-o -v`) is nothing, not `\n`.
          if (!(task.plain && task.onlyMatching && bytes.length === 0)) {
            writer.add(bytes, lineNumber, isSelected);
          }
          const owned = lineNumber >= 0 || !task.tracksLines;
          if (isSelected && owned && ++selected === task.maxCount) {
            lastToPrint = lineNumber + task.after;
          }
          return lineNumber < lastToPrint;
        },
        separator: () => undefined,
        // Plain output (no line numbers, context or cap): runs of lines are copied as they are.
        ...(task.plain
          ? {
              text: (lines: Uint8Array, lineCount: number) => {
                writer.addText(lines, lineCount);
                selected += lineCount;
                return true;
              },
            }
          : {}),
      },
    );
    if (writer.size > 0) await post(task.end - scanStart);
    return {
      done: { selected: task.countOnly ? matchCount : selected, lineCount: nextLineNumber },
    };
  } finally {
    await matcher.dispose();
    await reader.close();
  }
}

/**
 * Writes a batch to the spill file at `position`, where the task has one and room is left;
 * whether it did. A failed write (a full disk) turns spilling off: the part waits instead.
 */
function spill(records: Uint8Array, position: number): boolean {
  if (task.spillFd === undefined || position + records.length > task.spillBytes) return false;
  try {
    writeFullySync(task.spillFd, records, position);
    return true;
  } catch {
    task.spillFd = undefined;
    return false;
  }
}

scanPart().then(
  (message) => parentPort?.postMessage(message),
  (error: unknown) => parentPort?.postMessage(workerFailure(error)),
);
