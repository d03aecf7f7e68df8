import { compileMatcher, patternRegex } from '../grep/compile-matcher.js';
import { grepReadOptions, grepScan } from '../grep/grep-scan.js';
import type { GrepScanOptions } from '../grep/grep-scan-options.js';
import type { GrepSink } from '../grep/grep-sink.js';
import { parallelGrepScan } from '../grep/parallel-grep-scan.js';
import { printedShare } from '../grep/printed-share.js';
import { SpoolforgeError } from '../shared/spoolforge-error.js';
import { newline } from '../spool/newlines.js';
import { runsInParallel } from '../spool/parallel-threshold.js';
import { configuredThreadCount } from '../spool/thread-count.js';
import type { CliContext, Command } from './cli-context.js';
import { type CliSource, openSource } from './cli-source.js';
import { colon, grepPrinter, type PrintedSoFar } from './grep-printer.js';
import { type GrepSettings, parseGrepArguments } from './grep-settings.js';
import type { Output } from './output.js';
import { Progress } from './progress.js';

/** The name GNU grep gives standard input in its output. */
const standardInputName = '(standard input)';

/**
 * `spoolforge grep [OPTION…] PATTERN [SOURCE…]`, with GNU `grep -a`'s output byte for byte
 * (JavaScript regex syntax) and its exit status: 0 when a line was selected, 1 when none was,
 * 2 when a SOURCE could not be read (even if lines were selected; with `-q`, 0 once one is).
 * A SOURCE that cannot be opened is reported (unless `-s`) and the others are still searched.
 *
 * @example
 * ```ts
 * const status = await grepCommand(['-n', '-C', '2', 'ERROR', 'build.log', 'app.log'], context);
 * ```
 */
export const grepCommand: Command = async (argv, context) => {
  const settings = parseGrepArguments(argv);
  // GNU grep: with -m 0 it reads nothing (not the pattern, not the file), prints nothing, and
  // exits 1, even with -c.
  if (settings.maxCount === 0) return 1;
  // Checks the pattern once, before any SOURCE is opened; -o walks a line's matches with it
  // where the matcher cannot tell them itself.
  const regex = patternRegex(settings.pattern, { ...settings.syntax, global: true });
  const onlyMatching = settings.onlyMatching ? regex : undefined;
  const printed: PrintedSoFar = { anything: false };
  let selectedAny = false;
  let failed = false;
  for (const operand of settings.sources) {
    // Bytes: a file name is printed as it was given, UTF-8 or not ASCII.
    const name = Buffer.from(operand === '-' ? standardInputName : operand);
    let source: CliSource;
    try {
      source = await openSource(operand, () => context.stdin, settings.http);
    } catch (error) {
      if (!SpoolforgeError.isInstance(error)) throw error;
      if (!settings.noMessages) context.stderr.write(`spoolforge: ${error.message}\n`);
      failed = true;
      continue;
    }
    let selected: number;
    try {
      const sink = grepPrinter(
        context.output,
        {
          fileName: settings.withFileName ? name : undefined,
          lineNumbers: settings.lineNumbers,
          context: settings.scan.context,
          onlyMatching: settings.onlyMatching,
        },
        printed,
      );
      selected = await grepSource(source, settings, sink, context, onlyMatching);
    } finally {
      await source.close();
    }
    if (selected > 0) selectedAny = true;
    // -q prints nothing, not even a count or a file name, and ends at the first selected line.
    if (settings.quiet) {
      if (selected > 0) return 0;
      continue;
    }
    printSummary(context.output, settings, name, selected);
  }
  return failed ? 2 : selectedAny ? 0 : 1;
};

/** What -l, -L and -c print for one SOURCE once it is scanned. */
function printSummary(output: Output, settings: GrepSettings, name: Uint8Array, selected: number) {
  const { listFiles } = settings;
  if (
    listFiles === 'with-matches' ? selected > 0 : listFiles === 'without-match' && selected === 0
  ) {
    output.write(name);
    output.writeByte(newline);
  } else if (settings.countOnly && !listFiles) {
    if (settings.withFileName) {
      output.write(name);
      output.writeByte(colon);
    }
    output.writeByte(newline, selected);
  }
}

/**
 * Greps one SOURCE into `sink` (on worker threads for a large file) and returns the selected
 * lines; with `onlyMatching` (`-o`, the pattern's `g` regex), the sink gets each selected line's
 * matches.
 */
async function grepSource(
  source: CliSource,
  settings: GrepSettings,
  sink: GrepSink,
  context: CliContext,
  onlyMatching: RegExp | undefined,
): Promise<number> {
  const { output } = context;
  const progress = new Progress(context.stderr, source.size);
  const onProgress = async (bytes: number) => {
    progress.update(bytes);
    await output.drain();
  };
  // Threads grep line-aligned parts (this one the first); their output is written in file order.
  const file = source.file && runsInParallel(source.file, 'grep') ? source.file : undefined;
  const inParallel = async (path: string) => {
    const options = {
      ...settings.syntax,
      ...settings.scan,
      onlyMatching: settings.onlyMatching,
      onProgress,
    };
    return (await parallelGrepScan(path, settings.pattern, options, sink)).matchCount;
  };
  try {
    if (file && (settings.scan.countOnly || configuredThreadCount() !== undefined)) {
      return await inParallel(file.path);
    }
    const matcher = compileMatcher(settings.pattern, settings.syntax);
    try {
      const scan = { matcher, ...settings.scan, ...(onlyMatching && { onlyMatching }) };
      if (file && (await printsLittle(source, scan))) return await inParallel(file.path);
      const chunks = source.chunks(grepReadOptions);
      const options = { ...scan, onProgress };
      return (await grepScan(chunks, options, sink)).matchCount;
    } finally {
      await matcher.dispose();
    }
  } finally {
    progress.done();
  }
}

/** A grep that prints lines goes on threads below this share of printed bytes in its first MiB. */
const parallelPrintedShare = 0.6;

/**
 * Whether a grep that prints lines (without `-m`) prints little enough of its first MiB for
 * threads to pay. Output goes out in file order: this thread greps the first part and writes
 * its lines as they come, and a later part writes what it has no credit for to a spill file
 * (up to 256 MiB) and goes on scanning, but this thread still writes every byte. On 2 cores
 * (4 GiB logs, output over an existing file in a tmpfs, best of 3), two threads won up to about
 * half the bytes printed (`-F -v ' 200 '`, 45%: 2.59 s against 3.15 s on one; `-v
 * 'INFO|DEBUG'`: 3.87 s against 4.46 s) and tied past it (`-v ERROR`, 88%: 3.01 s against
 * 3.06 s; everything, 512 MiB: 0.52 s against 0.50 s).
 */
async function printsLittle(source: CliSource, scan: GrepScanOptions) {
  // With -m one thread stops at the last line it needs; a later part would scan for nothing.
  if (scan.maxCount !== undefined) return false;
  const sample = source.chunks({
    ...grepReadOptions,
    end: Math.min(source.size ?? 0, 1024 * 1024),
  });
  return (await printedShare(sample, scan)) < parallelPrintedShare;
}
