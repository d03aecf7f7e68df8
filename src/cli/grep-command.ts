import { compileMatcher } from '../artifact/grep/compile-matcher.js';
import { grepScan } from '../artifact/grep/grep-scan.js';
import type { GrepSink } from '../artifact/grep/grep-sink.js';
import { parallelGrepScan } from '../artifact/grep/parallel-grep-scan.js';
import { newline } from '../spool/newlines.js';
import type { Command } from './cli-context.js';
import { runsInParallel } from './parallel-threshold.js';
import { parseArguments, parseCount } from './parse-arguments.js';
import { Progress } from './progress.js';
import { withSource } from './source-operand.js';

/** GNU grep's separators after a line number: `:` for a selected line, `-` for context. */
const colon = 0x3a;
const hyphen = 0x2d;

const grepOptions = [
  { short: 'F', long: 'fixed-strings' },
  { short: 'i', long: 'ignore-case' },
  { short: 'v', long: 'invert-match' },
  { short: 'c', long: 'count' },
  { short: 'n', long: 'line-number' },
  { short: 'm', long: 'max-count', takesValue: true },
  { short: 'A', long: 'after-context', takesValue: true },
  { short: 'B', long: 'before-context', takesValue: true },
  { short: 'C', long: 'context', takesValue: true },
];

/**
 * `spoolforge grep [-F] [-i] [-v] [-c] [-n] [-m N] [-A N] [-B N] [-C N] PATTERN SOURCE`, with
 * GNU `grep -a`'s output byte for byte (JavaScript regex syntax) and its exit status: 0 when a
 * line was selected, 1 when none was.
 *
 * @example
 * ```ts
 * const status = await grepCommand(['-n', '-C', '2', 'ERROR', 'build.log'], context);
 * ```
 */
export const grepCommand: Command = async (argv, context) => {
  const { options, operands } = parseArguments(argv, grepOptions);
  const count = (letter: string, what: string) => {
    const value = options.get(letter);
    return value === undefined ? undefined : parseCount(value, what).value;
  };
  const contextLines = count('C', 'context lines');
  const before = count('B', 'context lines') ?? contextLines;
  const after = count('A', 'context lines') ?? contextLines;
  const maxCount = count('m', 'matches');
  const lineNumbers = options.has('n');
  const countOnly = options.has('c');
  // GNU grep: with -m 0 it reads nothing (not the pattern, not the file), prints nothing, and
  // exits 1, even with -c.
  if (maxCount === 0) return 1;
  return withSource(operands, ['PATTERN', 'SOURCE'], context, async (source, [pattern]) => {
    const patternOptions = { fixed: options.has('F'), ignoreCase: options.has('i') };
    const { output } = context;
    // Without -n each selected line is printed as it is: a parallel scan's parts hand over
    // their output whole (text), and one pass goes line by line.
    const writeLines = (lines: Uint8Array) => {
      output.write(lines);
      return !output.closed;
    };
    const sink: GrepSink = {
      line(bytes, lineNumber, isMatch) {
        if (lineNumbers) output.writeByte(isMatch ? colon : hyphen, lineNumber + 1);
        output.write(bytes);
        output.writeByte(newline);
        return !output.closed;
      },
      separator: () => output.writeText('--\n'),
      ...(lineNumbers ? {} : { text: writeLines }),
    };
    const scanOptions = {
      invert: options.has('v'),
      countOnly,
      lineNumbers,
      context: before !== undefined || after !== undefined,
      before: before ?? 0,
      after: after ?? 0,
      ...(maxCount === undefined ? {} : { maxCount }),
    };
    const progress = new Progress(context.stderr, source.size);
    const onProgress = async (bytes: number) => {
      progress.update(bytes);
      await output.drain();
    };
    let matchCount: number;
    try {
      if (source.file && runsInParallel(source.file)) {
        // Worker threads grep line-aligned parts; their output is written in file order.
        const parallelOptions = { ...patternOptions, ...scanOptions, onProgress };
        ({ matchCount } = await parallelGrepScan(
          source.file.path,
          pattern ?? '',
          parallelOptions,
          sink,
        ));
      } else {
        const matcher = compileMatcher(pattern ?? '', patternOptions);
        try {
          const chunks = source.chunks({ reuseBuffers: true });
          ({ matchCount } = await grepScan(chunks, { matcher, ...scanOptions, onProgress }, sink));
        } finally {
          await matcher.dispose();
        }
      }
    } finally {
      progress.done();
    }
    if (countOnly) output.writeText(`${matchCount}\n`);
    return matchCount > 0 ? 0 : 1;
  });
};
