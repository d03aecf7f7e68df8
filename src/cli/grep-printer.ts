import type { GrepSink } from '../grep/grep-sink.js';
import { newline } from '../spool/newlines.js';
import type { Output } from './output.js';

/**
 * GNU grep's separator after a file name or line number of a selected line (and in `FILE:COUNT`);
 * a context line's is `-`.
 *
 * @example
 * ```ts
 * output.writeByte(colon, lineNumber + 1); // "42:"
 * ```
 */
export const colon = 0x3a;
const hyphen = 0x2d;

/**
 * How `spoolforge grep` prints the lines of one SOURCE.
 */
export interface GrepPrinterOptions {
  /** Printed before each line (`FILE:`, `FILE-`): several SOURCEs, or `-H`. */
  fileName?: Uint8Array | undefined;
  lineNumbers: boolean;
  /** Context was asked for: a `--` goes between the groups of two SOURCEs, too. */
  context: boolean;
  /**
   * `-o`: a selected line arrives as its non-empty matches joined by `\n` (the scan's
   * `onlyMatching`), each printed on a line of its own.
   */
  onlyMatching?: boolean;
}

/**
 * What one run of `grep` has printed so far, across its SOURCEs: GNU grep puts `--` before the
 * first group of a SOURCE when anything was printed before it.
 */
export interface PrintedSoFar {
  anything: boolean;
}

/**
 * The sink that prints a scan's lines as GNU `grep -a` does: optional `FILE` and line number
 * prefixes, `--` between groups, and with `-o` only the matched parts (context lines are not
 * printed then, but still part groups, as in GNU grep). Without prefixes or `-o`, a parallel
 * scan may hand over its output whole through `text`.
 *
 * @example
 * ```ts
 * const sink = grepPrinter(output, { lineNumbers: true, context: false }, { anything: false });
 * ```
 */
export function grepPrinter(
  output: Output,
  options: GrepPrinterOptions,
  printed: PrintedSoFar,
): GrepSink {
  const { fileName, lineNumbers, context, onlyMatching } = options;
  let first = true;
  const prefix = (separator: number, lineNumber: number) => {
    if (fileName) {
      output.write(fileName);
      output.writeByte(separator);
    }
    if (lineNumbers) output.writeByte(separator, lineNumber + 1);
  };
  const sink: GrepSink = {
    line(bytes, lineNumber, isMatch) {
      if (first) {
        if (context && printed.anything) output.writeText('--\n');
        first = false;
        printed.anything = true;
      }
      if (!onlyMatching) {
        prefix(isMatch ? colon : hyphen, lineNumber);
        output.write(bytes);
        output.writeByte(newline);
      } else if (isMatch) {
        for (let start = 0; start < bytes.length; ) {
          const found = bytes.indexOf(newline, start);
          const end = found === -1 ? bytes.length : found;
          prefix(colon, lineNumber);
          output.write(bytes.subarray(start, end));
          output.writeByte(newline);
          start = end + 1;
        }
      }
      return !output.closed;
    },
    separator: () => output.writeText('--\n'),
  };
  if (fileName || lineNumbers) return sink;
  return {
    ...sink,
    text(lines) {
      output.write(lines);
      printed.anything = true;
      return !output.closed;
    },
  };
}
