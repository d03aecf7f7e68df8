import { compileMatcher } from '../artifact/grep/compile-matcher.js';
import { grepScan } from '../artifact/grep/grep-scan.js';
import { parallelGrepCount } from '../artifact/grep/parallel-grep-count.js';
import type { Command } from './cli-context.js';
import { runsInParallel } from './parallel-threshold.js';
import { parseArguments, parseCount } from './parse-arguments.js';
import { Progress } from './progress.js';
import { withSource } from './source-operand.js';

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
  return withSource(operands, ['PATTERN', 'SOURCE'], context, async (source, [pattern]) => {
    const patternOptions = { fixed: options.has('F'), ignoreCase: options.has('i') };
    const { output } = context;
    // A count over a large file: worker threads, one line-aligned part each.
    if (countOnly && maxCount === undefined && source.file && runsInParallel(source.file)) {
      const total = await parallelGrepCount(source.file.path, pattern ?? '', {
        ...patternOptions,
        invert: options.has('v'),
      });
      output.writeText(`${total}\n`);
      return total > 0 ? 0 : 1;
    }
    const matcher = compileMatcher(pattern ?? '', patternOptions);
    const progress = new Progress(context.stderr, source.size);
    try {
      const { matchCount } = await grepScan(
        source.chunks({ reuseBuffers: true }),
        {
          matcher,
          invert: options.has('v'),
          countOnly,
          lineNumbers,
          context: before !== undefined || after !== undefined,
          before: before ?? 0,
          after: after ?? 0,
          ...(maxCount === undefined ? {} : { maxCount }),
          onProgress: async (bytes) => {
            progress.update(bytes);
            await output.drain();
          },
        },
        {
          line(bytes, lineNumber, isMatch) {
            if (lineNumbers) output.writeText(`${lineNumber + 1}${isMatch ? ':' : '-'}`);
            output.write(bytes);
            output.writeText('\n');
            return !output.closed;
          },
          separator: () => output.writeText('--\n'),
        },
      );
      if (countOnly) output.writeText(`${matchCount}\n`);
      return matchCount > 0 ? 0 : 1;
    } finally {
      progress.done();
      await matcher.dispose();
    }
  });
};
