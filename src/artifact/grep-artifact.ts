import { compileMatcher, type PatternOptions } from '../grep/compile-matcher.js';
import { grepReadOptions, grepScan } from '../grep/grep-scan.js';
import type { GrepScanResult } from '../grep/grep-scan-options.js';
import { SpoolforgeError } from '../shared/spoolforge-error.js';
import { readerChunks } from '../spool/reader-chunks.js';
import type { SpoolReader } from '../spool/spool-reader.js';
import { decodeUtf8 } from './decode-utf8.js';

/**
 * Options for {@link SpooledArtifact.grep}, named after the grep flags they mirror.
 *
 * @example
 * ```ts
 * await artifact.grep('ERROR', { ignoreCase: true, context: 2, maxCount: 20 });
 * ```
 */
export interface GrepOptions extends PatternOptions {
  /** Select non-matching lines (`-v`). */
  invert?: boolean;
  /** Only count selected lines (`-c`); `lines` comes back empty. */
  count?: boolean;
  /** Stop after this many selected lines (`-m`). */
  maxCount?: number;
  /** Lines of context before each selected line (`-B`). */
  before?: number;
  /** Lines of context after each selected line (`-A`). */
  after?: number;
  /** Lines of context on both sides (`-C`); `before` / `after` win where given. */
  context?: number;
  /** Start at this 0-based line (to continue a search that was cut). Default 0. */
  startLine?: number;
}

/**
 * One line of a grep result. `lineNumber` is 0-based, like every line number of the TypeScript
 * API; `text` is UTF-8 decoded without its `\n`.
 */
export interface GrepLine {
  lineNumber: number;
  text: string;
  /** False for a context line. */
  isMatch: boolean;
}

/**
 * The answer of {@link SpooledArtifact.grep}: selected lines and context, in file order.
 * A gap between consecutive `lineNumber`s is where grep would print `--`.
 *
 * @example
 * ```ts
 * const { matchCount, lines } = await artifact.grep('timeout');
 * ```
 */
export interface GrepResult {
  /** Selected lines, at most `maxCount`. */
  matchCount: number;
  lines: GrepLine[];
}

/**
 * What a grep reads of an artifact (a `SpooledArtifact` is one): its bytes, where a line starts,
 * and how much text it may gather.
 *
 * @example
 * ```ts
 * const target: GrepTarget = artifact;
 * ```
 */
export interface GrepTarget {
  readonly reader: SpoolReader;
  readonly maxStringBytes: number;
  lineOffset(line: number, options?: { signal?: AbortSignal }): Promise<number>;
}

/**
 * Streams a grep over an artifact's bytes (those that have arrived) to `onLine`, decoded and
 * numbered from 0; `onLine` returns `false` to stop early. `onSeparator` marks where grep would
 * print `--`.
 *
 * @example
 * ```ts
 * await streamGrep(artifact, 'ERROR', { context: 1 }, (line) => void shown.push(line));
 * ```
 */
export function streamGrep(
  artifact: GrepTarget,
  pattern: string,
  options: GrepOptions,
  onLine: (line: GrepLine) => boolean | undefined,
  onSeparator: () => void = () => {},
): Promise<GrepScanResult> {
  return streamGrepBytes(
    artifact,
    pattern,
    options,
    (bytes, lineNumber, isMatch) => onLine({ lineNumber, text: decodeUtf8(bytes), isMatch }),
    onSeparator,
  );
}

/**
 * {@link streamGrep} with each line as its bytes (without `\n`, valid during the call only), for
 * a caller that weighs a line before it decodes it.
 *
 * @example
 * ```ts
 * await streamGrepBytes(artifact, 'ERROR', {}, (bytes) => bytes.length < 4096);
 * ```
 */
export async function streamGrepBytes(
  artifact: GrepTarget,
  pattern: string,
  options: GrepOptions,
  onLine: (bytes: Uint8Array, lineNumber: number, isMatch: boolean) => boolean | undefined,
  onSeparator: () => void = () => {},
): Promise<GrepScanResult> {
  for (const key of ['maxCount', 'before', 'after', 'context', 'timeout', 'startLine'] as const) {
    const value = options[key];
    if (value !== undefined && !(Number.isInteger(value) && value >= 0)) {
      throw new SpoolforgeError(
        'E_INVALID_ARGUMENT',
        `grep option ${key} must be a whole number ≥ 0, got ${value}`,
      );
    }
  }
  const matcher = compileMatcher(pattern, options);
  try {
    const { signal } = options;
    const startLine = options.startLine ?? 0;
    const chunks = readerChunks(artifact.reader, {
      ...grepReadOptions,
      start: await artifact.lineOffset(startLine, signal ? { signal } : {}),
      ...(signal ? { signal } : {}),
    });
    const before = options.before ?? options.context ?? 0;
    const after = options.after ?? options.context ?? 0;
    return await grepScan(
      chunks,
      {
        matcher,
        invert: options.invert === true,
        countOnly: options.count === true,
        lineNumbers: true,
        firstLineNumber: startLine,
        context: before > 0 || after > 0,
        before,
        after,
        ...(options.maxCount === undefined ? {} : { maxCount: options.maxCount }),
        ...(signal ? { signal } : {}),
      },
      { line: onLine, separator: onSeparator },
    );
  } finally {
    await matcher.dispose();
  }
}

/**
 * Runs {@link SpooledArtifact.grep}: gathers the lines of {@link streamGrep}, at most the
 * artifact's `maxStringBytes` of text.
 *
 * @example
 * ```ts
 * const result = await grepArtifact(artifact, 'ERROR', { maxCount: 5 });
 * ```
 */
export async function grepArtifact(
  artifact: GrepTarget,
  pattern: string,
  options: GrepOptions,
): Promise<GrepResult> {
  const lines: GrepLine[] = [];
  let size = 0;
  const { matchCount } = await streamGrep(artifact, pattern, options, (line) => {
    size += line.text.length;
    if (size > artifact.maxStringBytes) {
      throw new SpoolforgeError(
        'E_ARTIFACT_TOO_LARGE',
        `grep matched more than maxStringBytes (${artifact.maxStringBytes} bytes) of text; ` +
          'narrow the pattern, set maxCount, or count',
      );
    }
    lines.push(line);
    return true;
  });
  return { matchCount, lines };
}
