import { readerChunks } from '../spool/reader-chunks.js';
import { tailOffset } from '../spool/tail-offset.js';
import type { Command } from './cli-context.js';
import { copyBytes, copyLines } from './copy-lines.js';
import { copyIndexedLines } from './indexed-lines.js';
import { parseArguments, parseCount, usageError } from './parse-arguments.js';
import { sourceOptions, withSource } from './source-operand.js';

const lineCountOption = [{ short: 'n', long: 'lines', takesValue: true }, ...sourceOptions];

/**
 * `spoolforge head [-n N] SOURCE`: the first N lines, or with `-n -N` all but the last N, as
 * GNU `head`. Reads only what it prints.
 *
 * @example
 * ```ts
 * const status = await headCommand(['-n', '5', 'build.log'], context);
 * ```
 */
export const headCommand: Command = async (argv, context) => {
  const parsed = parseArguments(argv, lineCountOption);
  const { value, sign } = parseCount(parsed.options.get('n') ?? '10', 'lines', { signs: true });
  return withSource(parsed, ['SOURCE'], context, async (source) => {
    if (sign !== '-') {
      await copyLines(
        source.chunks({ initialChunkSize: 64 * 1024, reuseBuffers: true }),
        0,
        value,
        context.output,
      );
      return 0;
    }
    const reader = await source.reader();
    await copyBytes(
      readerChunks(reader, { end: await tailOffset(reader, value), reuseBuffers: true }),
      context.output,
    );
    return 0;
  });
};

/**
 * `spoolforge tail [-n N] SOURCE`: the last N lines, found by reading backwards from the end,
 * or with `-n +N` everything from line N on, as GNU `tail`.
 *
 * @example
 * ```ts
 * const status = await tailCommand(['-n', '100', 'build.log'], context);
 * ```
 */
export const tailCommand: Command = async (argv, context) => {
  const parsed = parseArguments(argv, lineCountOption);
  const { value, sign } = parseCount(parsed.options.get('n') ?? '10', 'lines', { signs: true });
  return withSource(parsed, ['SOURCE'], context, async (source) => {
    if (sign === '+') {
      await copyLines(
        source.chunks({ reuseBuffers: true }),
        Math.max(0, value - 1),
        Number.POSITIVE_INFINITY,
        context.output,
      );
      return 0;
    }
    const reader = await source.reader();
    await copyBytes(
      readerChunks(reader, { start: await tailOffset(reader, value), reuseBuffers: true }),
      context.output,
    );
    return 0;
  });
};

/**
 * `spoolforge lines START END SOURCE`: lines START to END, 1-based and inclusive, byte for byte
 * what `sed -n 'START,ENDp'` prints (an END before START prints line START alone). A large file's
 * line index is persisted, so later calls seek instead of scanning.
 *
 * @example
 * ```ts
 * const status = await linesCommand(['10', '20', 'build.log'], context);
 * ```
 */
export const linesCommand: Command = async (argv, context) => {
  return withSource(
    parseArguments(argv, sourceOptions),
    ['START', 'END', 'SOURCE'],
    context,
    async (source, [first, last]) => {
      const start = parseCount(first ?? '', 'START').value;
      const end = parseCount(last ?? '', 'END').value;
      if (start === 0) throw usageError('invalid usage of line address 0');
      await copyIndexedLines(source, start - 1, Math.max(start, end), context.output, {
        stderr: () => context.stderr,
      });
      return 0;
    },
  );
};
