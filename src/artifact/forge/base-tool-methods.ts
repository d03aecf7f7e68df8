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

const lineCountArgument = z
  .number()
  .int()
  .min(0)
  .nullish()
  .describe('How many lines (default 10).');

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
      `[cut at ${formatBytes(budget)}. Continue with ${continuation('artifact_cat', { callId, start: toModelLine(next), end: stop })}]`,
    );
    break;
  }
  // The header says what is shown, which a cut makes less than what was asked.
  const shown = (text.lastLine ?? start) + 1;
  return `lines ${toModelLine(start)}–${shown} of ${total}:\n${text}`;
}

const head: ToolMethodDescriptor<SpooledArtifact, { n: typeof lineCountArgument }> = {
  name: 'artifact_head',
  description: 'The first lines of a spooled tool output, numbered from 1 (like `head -n N`).',
  args: { n: lineCountArgument },
  run: (artifact, { n }, context) => showLines(artifact, 0, n ?? 10, context),
};

const tail: ToolMethodDescriptor<SpooledArtifact, { n: typeof lineCountArgument }> = {
  name: 'artifact_tail',
  description: 'The last lines of a spooled tool output, numbered from 1 (like `tail -n N`).',
  args: { n: lineCountArgument },
  run: async (artifact, { n }, context) => {
    const total = await artifact.lineCount({ signal: context.signal });
    return showLines(artifact, Math.max(0, total - (n ?? 10)), total, context);
  },
};

const catArgs = {
  start: z.number().int().min(1).nullish().describe('First line, 1-based (default 1).'),
  end: z.number().int().min(1).nullish().describe('Last line, inclusive (default: the last).'),
};

const cat: ToolMethodDescriptor<SpooledArtifact, typeof catArgs> = {
  name: 'artifact_cat',
  description:
    'Lines START to END (1-based, inclusive, like `sed -n START,ENDp`) of a spooled tool ' +
    'output. Long results are cut at a size limit and say how to continue.',
  args: catArgs,
  run: async (artifact, { start, end }, context) => {
    const first = start ?? 1;
    const last = end ?? Number.MAX_SAFE_INTEGER;
    if (last < first) {
      throw new SpoolforgeError('E_INVALID_TOOL_ARGS', `end (${last}) is before start (${first})`);
    }
    const range = fromModelRange(first, last);
    return showLines(artifact, range.start, range.end, context);
  },
};

const grepArgs = {
  pattern: z.string().describe('A JavaScript regular expression, or a literal with fixed: true.'),
  fixed: z.boolean().nullish().describe('Treat the pattern as a literal string (grep -F).'),
  ignoreCase: z.boolean().nullish().describe('Case-insensitive (grep -i).'),
  invert: z.boolean().nullish().describe('Show lines that do not match (grep -v).'),
  before: z.number().int().min(0).max(100).nullish().describe('Context lines before (grep -B).'),
  after: z.number().int().min(0).max(100).nullish().describe('Context lines after (grep -A).'),
  maxCount: z.number().int().min(1).nullish().describe('Stop after this many matches (grep -m).'),
  startLine: z
    .number()
    .int()
    .min(1)
    .nullish()
    .describe('Search from this line (1-based), to continue.'),
};

const grep: ToolMethodDescriptor<SpooledArtifact, typeof grepArgs> = {
  name: 'artifact_grep',
  description:
    'Search a spooled tool output line by line, like `grep -n`: matches are `N:line`, context ' +
    'lines `N-line`, groups separated by `--`. Results are cut at a size limit and say how to continue.',
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
        before: defined(args.before),
        after: defined(args.after),
        maxCount: defined(args.maxCount),
        startLine: args.startLine == null ? undefined : fromModelLine(args.startLine),
      }).filter(([, value]) => value !== undefined),
    );
    const focus = matchFocus(args.pattern, args);
    const { matchCount } = await streamGrep(
      artifact,
      args.pattern,
      { ...options, timeout: grepTimeout, signal },
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

const byteLength: ToolMethodDescriptor<SpooledArtifact, Record<string, never>> = {
  name: 'artifact_byte_length',
  description: 'The size of a spooled tool output in bytes.',
  args: {},
  run: async (artifact) => {
    const bytes = await artifact.byteLength();
    return `${bytes} bytes (${formatBytes(bytes)})`;
  },
};

const lineCount: ToolMethodDescriptor<SpooledArtifact, Record<string, never>> = {
  name: 'artifact_line_count',
  description: 'The number of lines of a spooled tool output.',
  args: {},
  run: async (artifact, _args, { signal }) => `${await artifact.lineCount({ signal })} lines`,
};

const encodingArgs = {
  encoding: z
    .enum(['o200k_base', 'cl100k_base'])
    .nullish()
    .describe('Tokenizer: o200k_base (GPT-4o and later, default) or cl100k_base.'),
};

const estimateTokens: ToolMethodDescriptor<SpooledArtifact, typeof encodingArgs> = {
  name: 'artifact_estimate_tokens',
  description: 'How many tokens a spooled tool output would cost if read whole.',
  args: encodingArgs,
  run: async (artifact, { encoding }, { signal }) => {
    const { tokens, method } = await artifact.tokenEstimate(encoding ?? 'o200k_base', { signal });
    const how = {
      exact: 'counted exactly',
      sampled: 'estimated from samples',
      approximate: 'approximated from the size',
    }[method];
    return `${tokens} tokens (${encoding ?? 'o200k_base'}, ${how})`;
  },
};

/**
 * The queries every spooled artifact answers, as models see them (names pinned: models and users rely on them).
 *
 * @example
 * ```ts
 * baseToolMethods.map((method) => method.name); // ['artifact_head', 'artifact_tail', …]
 * ```
 */
export const baseToolMethods: readonly ToolMethodDescriptor<SpooledArtifact>[] = Object.freeze([
  head,
  tail,
  grep,
  cat,
  byteLength,
  lineCount,
  estimateTokens,
] as unknown as ToolMethodDescriptor<SpooledArtifact>[]);
