import { z } from 'zod';
import { formatBytes } from '../../shared/format-bytes.js';
import { SpoolforgeError } from '../../shared/spoolforge-error.js';
import { streamGrep } from '../grep-artifact.js';
import { linePreviews } from '../line-previews.js';
import type { SpooledArtifact } from '../spooled-artifact.js';
import { matchFocus } from './match-focus.js';
import {
  BoundedText,
  continueWith,
  defaultResultLimits,
  fromModelLine,
  fromModelRange,
  toModelLine,
} from './model-lines.js';
import type { ToolMethodContext, ToolMethodDescriptor } from './tool-method-descriptor.js';

/** A catastrophic pattern from a model fails after this long instead of holding the turn. */
const grepTimeout = 10_000;

/**
 * Shows lines `[start, end)` numbered, cut at the byte budget with the call that continues. Each
 * line is read no further than it can be shown, so a 50 MB minified line costs a few KiB.
 */
async function showLines(
  artifact: SpooledArtifact,
  start: number,
  end: number,
  { callId, limits, signal, continuation = continueWith }: ToolMethodContext,
): Promise<string> {
  const total = await artifact.lineCount({ signal });
  const stop = Math.min(end, total);
  if (start >= stop) return `No lines to show: the output has ${total} lines.`;
  const text = new BoundedText(limits);
  const maxLineBytes = text.maxLineChars * 4; // enough bytes for maxLineChars characters
  for await (const line of linePreviews(artifact, start, stop, { maxLineBytes, signal })) {
    if (text.add(line.lineNumber, line.text, ':', line.cut ? { lineBytes: line.byteLength } : {}))
      continue;
    const next = (text.lastLine ?? start - 1) + 1;
    const budget = limits.maxResultBytes ?? defaultResultLimits.maxResultBytes;
    text.note(
      `[cut at ${formatBytes(budget)}. Continue with ${continuation(readToolName, { callId, start: toModelLine(next), end: stop })}]`,
    );
    break;
  }
  // The header says what is shown, which a cut makes less than what was asked.
  const shown = (text.lastLine ?? start) + 1;
  return `lines ${toModelLine(start)}–${shown} of ${total}:\n${text}`;
}

const readArgs = {
  start: z.number().int().min(1).nullish(),
  end: z.number().int().min(1).nullish(),
  last: z.number().int().min(1).nullish(),
};

/** The name of the tool that reads lines: continuation notes of every kind name it. */
export const readToolName = 'artifact_read';

const read: ToolMethodDescriptor<SpooledArtifact, typeof readArgs> = {
  name: readToolName,
  description:
    'Lines START..END (1-based, inclusive, like `sed -n`) of a spooled output, or the last ' +
    'N; else the first lines.',
  args: readArgs,
  run: async (artifact, { start, end, last }, context) => {
    if (last != null) {
      if (start != null || end != null) {
        throw new SpoolforgeError('E_INVALID_TOOL_ARGS', 'Give last, or start/end, not both');
      }
      const total = await artifact.lineCount({ signal: context.signal });
      return showLines(artifact, Math.max(0, total - last), total, context);
    }
    const first = start ?? 1;
    const final = end ?? Number.MAX_SAFE_INTEGER;
    if (final < first) {
      throw new SpoolforgeError('E_INVALID_TOOL_ARGS', `end (${final}) is before start (${first})`);
    }
    const range = fromModelRange(first, final);
    return showLines(artifact, range.start, range.end, context);
  },
};

const grepArgs = {
  pattern: z.string().describe('JavaScript regex.'),
  fixed: z.boolean().nullish().describe('grep -F.'),
  ignoreCase: z.boolean().nullish(),
  invert: z.boolean().nullish(),
  context: z.number().int().min(0).max(100).nullish().describe('grep -C.'),
  maxCount: z.number().int().min(1).nullish(),
  startLine: z.number().int().min(1).nullish().describe('Search from this line.'),
};

const grep: ToolMethodDescriptor<SpooledArtifact, typeof grepArgs> = {
  name: 'artifact_grep',
  description:
    '`grep -n` a spooled output: `N:line` matches, `N-line` context, `--` between groups.',
  args: grepArgs,
  run: async (artifact, args, { callId, limits, signal, continuation = continueWith }) => {
    const text = new BoundedText(limits);
    let cut = false;
    let shownMatches = 0;
    const defined = <T>(value: T | null | undefined) => (value == null ? undefined : value);
    const options = Object.fromEntries(
      Object.entries({
        fixed: defined(args.fixed),
        ignoreCase: defined(args.ignoreCase),
        invert: defined(args.invert),
        before: defined(args.context),
        after: defined(args.context),
        maxCount: defined(args.maxCount),
        startLine: args.startLine == null ? undefined : fromModelLine(args.startLine),
      }).filter(([, value]) => value !== undefined),
    );
    const focus = matchFocus(args.pattern, args);
    const { matchCount } = await streamGrep(
      artifact,
      args.pattern,
      { ...options, timeout: grepTimeout, signal, whenBusy: 'fail' },
      (line) => {
        // A match deep in a long line (a minified document) is shown with the text around it.
        const long = line.isMatch && !args.invert && line.text.length > text.maxLineChars;
        const known = long ? { focus: focus(line.text) } : {};
        if (!text.add(line.lineNumber, line.text, line.isMatch ? ':' : '-', known)) {
          cut = true;
          return false;
        }
        if (line.isMatch) shownMatches++;
        return true;
      },
      () => void text.addText('--'),
    );
    if (cut) {
      const next = (text.lastLine ?? -1) + 1;
      const budget = limits.maxResultBytes ?? defaultResultLimits.maxResultBytes;
      const call = continuation('artifact_grep', { ...args, callId, startLine: toModelLine(next) });
      // A call that would not fit the note (a pattern of many KiB) is named by what changes.
      const how =
        Buffer.byteLength(call) <= 800
          ? call
          : `the same artifact_grep call with "startLine":${toModelLine(next)}`;
      text.note(
        `[cut at ${formatBytes(budget)} after ${shownMatches} matching lines; more may follow. Continue with ${how}]`,
      );
    } else if (matchCount === 0) {
      text.note('No matching lines.');
    } else {
      const stopped =
        args.maxCount != null && matchCount >= args.maxCount ? ' (stopped at maxCount)' : '';
      text.note(`${matchCount} matching line${matchCount === 1 ? '' : 's'}${stopped}.`);
    }
    return text.toString();
  },
};

/**
 * The queries every spooled artifact answers, as models see them (names pinned: models and users rely on them).
 *
 * @example
 * ```ts
 * baseToolMethods.map((method) => method.name); // ['artifact_read', 'artifact_grep']
 * ```
 */
export const baseToolMethods: readonly ToolMethodDescriptor<SpooledArtifact>[] = Object.freeze([
  read,
  grep,
] as unknown as ToolMethodDescriptor<SpooledArtifact>[]);
