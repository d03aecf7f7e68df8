import type { FileHandle } from 'node:fs/promises';
import { throwIfAborted } from '../shared/spoolforge-error.js';
import { startWorker } from '../shared/start-worker.js';
import { workerUrl } from '../shared/worker-url.js';
import { FileSpoolReader } from '../spool/file-spool-reader.js';
import { type ByteRange, fileParts } from '../spool/parallel-ranges.js';
import { readerChunks } from '../spool/reader-chunks.js';
import { WorkerInbox } from '../spool/worker-inbox.js';
import { compileMatcher, type PatternSyntax } from './compile-matcher.js';
import { readGrepRecords } from './grep-line-records.js';
import { grepReadOptions, grepScan } from './grep-scan.js';
import type { GrepScanOptions } from './grep-scan-options.js';
import type { GrepPartMessage, GrepPartTask } from './grep-scan-worker.js';
import type { GrepSink } from './grep-sink.js';
import { OrderedGrepMerge } from './ordered-grep-merge.js';
import { type PartScanFlags, partScanOptions } from './part-scan-options.js';
import { openSpillFile, SpillReader } from './spill-file.js';

/**
 * Options for {@link parallelGrepScan}: grep's flags, as for `grepScan`, and the threads.
 */
export interface ParallelGrepScanOptions
  extends PatternSyntax,
    Pick<
      GrepScanOptions,
      'invert' | 'maxCount' | 'before' | 'after' | 'context' | 'countOnly' | 'lineNumbers'
    > {
  /**
   * `grep -o`: each part's thread hands over a selected line's non-empty matches joined by
   * `\n` instead of the line (see `GrepScanOptions.onlyMatching`).
   */
  onlyMatching?: boolean;
  /**
   * Threads, one per line-aligned part: the first part is grepped on the calling thread, the
   * others on worker threads. Default `defaultThreadCount()`.
   */
  threads?: number;
  /**
   * Bytes of output a worker may have posted ahead of what was written before it waits: the
   * bound on memory when later parts print faster than the output takes it. Default 4 MiB.
   */
  creditBytes?: number;
  /**
   * Bytes of output a later part may write to a private temporary file (unlinked at once)
   * while earlier parts are written, rather than wait for credit: its threads go on scanning.
   * Default 256 MiB per part; 0 turns it off.
   */
  spillBytes?: number;
  signal?: AbortSignal;
  /** Called after each batch of output is written; a returned promise is awaited (back-pressure). */
  onProgress?: (bytesScanned: number) => void | Promise<void>;
}

/**
 * The outcome of a {@link parallelGrepScan}.
 *
 * @example
 * ```ts
 * const { matchCount } = await parallelGrepScan(path, 'ERROR', { countOnly: true, maxCount: 10 });
 * ```
 */
export interface ParallelGrepScanResult {
  /** Selected lines (matching, or not matching with `invert`), at most `maxCount`. */
  matchCount: number;
  /** The sink asked to stop before the file ended. */
  stoppedBySink: boolean;
}

/**
 * `grepScan` over a file by threads, each grepping one line-aligned part (the first on the
 * calling thread, which writes its lines straight to the sink: no worker to start, no batch
 * to copy), with the sink called exactly as one pass calls it: lines in file order, line
 * numbers, context groups and `--` across part boundaries, `-m` over the whole file (later
 * parts are stopped). Each worker posts its output in batches and waits when `creditBytes` of
 * it are not yet written, so memory stays bounded however much a part prints. An invalid pattern fails here, before
 * any thread starts.
 *
 * @example
 * ```ts
 * await parallelGrepScan('/var/log/huge.log', 'timeout', { lineNumbers: true, context: true, before: 3, after: 3 }, {
 *   line: (bytes, lineNumber, isMatch) => void console.log(`${lineNumber + 1}${isMatch ? ':' : '-'}${Buffer.from(bytes)}`),
 *   separator: () => console.log('--'),
 * });
 * ```
 */
export async function parallelGrepScan(
  path: string,
  pattern: string,
  options: ParallelGrepScanOptions = {},
  sink?: GrepSink,
): Promise<ParallelGrepScanResult> {
  const { signal } = options;
  const patternOptions: PatternSyntax = {
    ...(options.fixed === undefined ? {} : { fixed: options.fixed }),
    ...(options.ignoreCase === undefined ? {} : { ignoreCase: options.ignoreCase }),
    ...(options.wordRegexp === undefined ? {} : { wordRegexp: options.wordRegexp }),
    ...(options.lineRegexp === undefined ? {} : { lineRegexp: options.lineRegexp }),
  };
  // Fails fast on a bad pattern; in thread, so checking a regex starts no worker.
  await compileMatcher(pattern, { ...patternOptions, inThread: true }).dispose();
  const maxCount = options.maxCount ?? Number.POSITIVE_INFINITY;
  if (maxCount <= 0) return { matchCount: 0, stoppedBySink: false };
  const before = options.before ?? 0;
  const after = options.after ?? 0;
  const context = options.context === true || before > 0 || after > 0;
  const countOnly = options.countOnly === true;
  const tracksLines = !countOnly && (options.lineNumbers === true || context);
  // Nothing but the selected lines is printed: parts send their output as it is.
  const plain =
    sink?.text !== undefined && !tracksLines && !countOnly && maxCount === Number.POSITIVE_INFINITY;
  const parts = await fileParts(path, { threads: options.threads, signal });
  const creditBytes = options.creditBytes ?? 4 * 1024 * 1024;
  const spillBytes = options.spillBytes ?? 256 * 1024 * 1024;
  const [first, ...later] = parts;
  if (!first) return { matchCount: 0, stoppedBySink: false };
  // A later part's output may have to wait its turn: it spills to a file rather than stall.
  const spills = await Promise.all(
    later.map(() => (spillBytes > 0 && !countOnly ? openSpillFile() : undefined)),
  );
  const flags: PartScanFlags = {
    pattern,
    patternOptions,
    invert: options.invert ?? false,
    before,
    after,
    tracksLines,
    countOnly,
    maxCount,
    onlyMatching: options.onlyMatching === true,
  };
  const workers = later.map((part, index) => {
    const task: GrepPartTask = {
      path,
      ...part,
      ...flags,
      creditBytes,
      spillFd: spills[index]?.fd,
      spillBytes,
      plain,
    };
    return startWorker(workerUrl('grep/grep-scan-worker.js'), {
      workerData: task,
      // Per-line garbage dies young: a small nursery is collected often at no cost in speed,
      // and keeps each thread's share of RSS small.
      resourceLimits: { maxYoungGenerationSizeMb: 8 },
    });
  });
  // Listening from the start: a later part's messages wait in its inbox for its turn.
  const inboxes = workers.map((worker) => new WorkerInbox<GrepPartMessage>(worker, { signal }));
  const merge = new OrderedGrepMerge(
    { tracksLines, context, after, maxCount },
    countOnly ? undefined : sink,
  );
  const spilled = new SpillReader();
  try {
    const head = await grepFirstPart(path, first, flags, {
      plain,
      merge,
      sink,
      ...(signal ? { signal } : {}),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    });
    let total = head.selected;
    let printed = plain ? head.selected : 0;
    if (head.stopped) {
      return plain
        ? { matchCount: printed, stoppedBySink: true }
        : { matchCount: merge.selected, stoppedBySink: merge.stoppedBySink };
    }
    let firstLineNumber = head.lineCount;
    for (const [index, worker] of workers.entries()) {
      if (countOnly && total >= maxCount) break;
      const inbox = inboxes[index] as WorkerInbox<GrepPartMessage>;
      const scannedBefore = later[index]?.start ?? 0;
      merge.startPart(firstLineNumber);
      for (;;) {
        throwIfAborted(signal);
        const message = await inbox.take();
        if ('done' in message) {
          total += message.done.selected;
          firstLineNumber += message.done.lineCount;
          break;
        }
        printed += message.recordCount;
        const records =
          'spilled' in message
            ? spilled.read(spills[index] as FileHandle, message.spilled)
            : message.records;
        const goOn = plain
          ? sink?.text?.(records, message.recordCount) !== false
          : readGrepRecords(records, (bytes, lineNumber, selected) =>
              merge.line(bytes, lineNumber, selected),
            );
        await options.onProgress?.(scannedBefore + message.scanned);
        if (!goOn) {
          return plain
            ? { matchCount: printed, stoppedBySink: true }
            : { matchCount: merge.selected, stoppedBySink: merge.stoppedBySink };
        }
        if ('records' in message) {
          const { buffer } = message.records;
          worker.postMessage(buffer, [buffer as ArrayBuffer]);
        }
      }
      await worker.terminate();
    }
    return {
      // Plain output's lines are the selected ones, except with -o: a line without a
      // non-empty match prints nothing, and each part counted its selected lines.
      matchCount: countOnly ? Math.min(total, maxCount) : plain ? total : merge.selected,
      stoppedBySink: false,
    };
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
    await Promise.all(spills.map((spill) => spill?.close()));
  }
}

/**
 * Greps the first part on this thread, its lines going straight to the merge (or, plain, its
 * text to the sink), as a part's worker would post them. `stopped`: the sink or `-m` ended
 * the output within it.
 */
async function grepFirstPart(
  path: string,
  part: ByteRange,
  flags: PartScanFlags,
  options: Pick<ParallelGrepScanOptions, 'signal' | 'onProgress'> & {
    plain: boolean;
    merge: OrderedGrepMerge;
    sink: GrepSink | undefined;
  },
): Promise<{ selected: number; lineCount: number; stopped: boolean }> {
  const { countOnly } = flags;
  const { plain, merge, sink, signal } = options;
  const reader = new FileSpoolReader(path);
  // As in a one-thread grep: a regex the automaton cannot take runs in the pool's worker,
  // which an abort terminates (a backtracking regex yields to nothing else).
  const matcher = compileMatcher(flags.pattern, {
    ...flags.patternOptions,
    ...(signal ? { signal } : {}),
  });
  try {
    let selected = 0;
    let stopped = false;
    const result = await grepScan(
      readerChunks(reader, { ...grepReadOptions, end: part.end, ...(signal ? { signal } : {}) }),
      {
        matcher,
        ...partScanOptions(flags),
        ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      },
      countOnly
        ? undefined
        : {
            line(bytes, lineNumber, isSelected) {
              if (plain && isSelected) selected++;
              stopped = !merge.line(bytes, lineNumber, isSelected);
              return !stopped;
            },
            separator: () => undefined,
            ...(plain
              ? {
                  text: (lines: Uint8Array, lineCount: number) => {
                    selected += lineCount;
                    stopped = sink?.text?.(lines, lineCount) === false;
                    return !stopped;
                  },
                }
              : {}),
          },
    );
    return {
      selected: countOnly ? result.matchCount : plain ? selected : merge.selected,
      lineCount: result.nextLineNumber,
      stopped,
    };
  } finally {
    await matcher.dispose();
    await reader.close();
  }
}
