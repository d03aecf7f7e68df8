import { SpoolforgeError } from '../shared/spoolforge-error.js';
import { readerChunks } from '../spool/reader-chunks.js';
import { decodeUtf8 } from './decode-utf8.js';
import { compileMatcher } from './grep/compile-matcher.js';
import { grepScan } from './grep/grep-scan.js';
import type { GrepLine, GrepOptions, GrepResult } from './grep-types.js';
import type { SpooledArtifact } from './spooled-artifact.js';

/**
 * Runs {@link SpooledArtifact.grep}: one scan of the bytes that have arrived, gathering at most
 * the artifact's `maxStringBytes` of text.
 *
 * @example
 * ```ts
 * const result = await grepArtifact(artifact, 'ERROR', { maxCount: 5 });
 * ```
 */
export async function grepArtifact(
  artifact: SpooledArtifact,
  pattern: string,
  options: GrepOptions,
): Promise<GrepResult> {
  for (const key of ['maxCount', 'before', 'after', 'context', 'timeout'] as const) {
    const value = options[key];
    if (value !== undefined && !(Number.isInteger(value) && value >= 0)) {
      throw new SpoolforgeError(
        'E_INVALID_ARGUMENT',
        `grep option ${key} must be a whole number ≥ 0, got ${value}`,
      );
    }
  }
  const matcher = compileMatcher(pattern, options);
  const lines: GrepLine[] = [];
  let size = 0;
  try {
    const chunks = readerChunks(artifact.reader, {
      reuseBuffers: true,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const before = options.before ?? options.context ?? 0;
    const after = options.after ?? options.context ?? 0;
    const { matchCount } = await grepScan(
      chunks,
      {
        matcher,
        invert: options.invert === true,
        countOnly: options.count === true,
        lineNumbers: true,
        before,
        after,
        ...(options.maxCount === undefined ? {} : { maxCount: options.maxCount }),
        ...(options.signal ? { signal: options.signal } : {}),
      },
      {
        line(bytes, lineNumber, isMatch) {
          const text = decodeUtf8(bytes);
          size += text.length;
          if (size > artifact.maxStringBytes) {
            throw new SpoolforgeError(
              'E_ARTIFACT_TOO_LARGE',
              `grep matched more than maxStringBytes (${artifact.maxStringBytes} bytes) of text; ` +
                'narrow the pattern, set maxCount, or count',
            );
          }
          lines.push({ lineNumber, text, isMatch });
          return true;
        },
        separator() {},
      },
    );
    return { matchCount, lines };
  } finally {
    await matcher.dispose();
  }
}
