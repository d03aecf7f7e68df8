import { z } from 'zod';
import { formatBytes } from '../../shared/format-bytes.js';
import { SpoolforgeError } from '../../shared/spoolforge-error.js';
import type { ArtifactLine } from '../artifact-line.js';
import {
  BoundedText,
  continueWith,
  cutLine,
  defaultResultLimits,
  fromModelRange,
  toModelLine,
} from '../forge/model-lines.js';
import type { ToolMethodContext, ToolMethodDescriptor } from '../forge/tool-method-descriptor.js';
import { sectionsNamed } from './markdown-sections.js';
import type { MarkdownSection } from './markdown-types.js';
import type { SpooledMarkdownArtifact } from './spooled-markdown-artifact.js';

/**
 * Shows numbered lines under a header, cut at the byte budget with the call that continues
 * (`continuation(next)` names it, `next` being the first 0-based line not shown).
 */
async function showNumbered(
  header: string,
  lines: AsyncIterable<ArtifactLine> | Iterable<ArtifactLine>,
  continuation: (next: number) => string,
  { limits }: ToolMethodContext,
): Promise<{ text: string; empty: boolean }> {
  const text = new BoundedText(limits);
  text.addText(cutLine(header, text.maxLineChars));
  let first: number | undefined;
  for await (const line of lines) {
    first ??= line.lineNumber;
    if (text.add(line.lineNumber, line.text)) continue;
    const budget = limits.maxResultBytes ?? defaultResultLimits.maxResultBytes;
    const shown = `lines ${toModelLine(first)}–${line.lineNumber}`;
    text.note(
      `[cut at ${formatBytes(budget)}: showing ${shown}. Continue with ${continuation(line.lineNumber)}]`,
    );
    break;
  }
  return { text: text.toString(), empty: first === undefined };
}

/**
 * The front matter's text, numbered with its real lines.
 *
 * @example
 * ```ts
 * // artifact_md_frontmatter {"callId":"call_1"} → "YAML front matter, lines 1–3:\n2:title: Guide\n"
 * ```
 */
export const frontmatterTool: ToolMethodDescriptor<
  SpooledMarkdownArtifact,
  Record<string, never>
> = {
  name: 'artifact_md_frontmatter',
  description:
    'The YAML (---) or TOML (+++) front matter at the start of a spooled Markdown output, with line numbers.',
  args: {},
  run: async (artifact, _args, context) => {
    const { callId, signal } = context;
    const matter = await artifact.frontmatter({ signal });
    if (!matter) return 'No front matter.';
    const { format, start, end } = matter;
    const lines =
      matter.text === ''
        ? []
        : matter.text.split('\n').map((text, index) => ({ lineNumber: start + 1 + index, text }));
    const header = `${format.toUpperCase()} front matter, lines ${toModelLine(start)}–${end}:`;
    const continuation = (next: number) =>
      continueWith('artifact_cat', { callId, start: toModelLine(next), end: end - 1 });
    return (await showNumbered(header, lines, continuation, context)).text;
  },
};

const sectionArgs = {
  heading: z
    .string()
    .nullish()
    .describe('The heading text (ignoring case; leading # marks optional).'),
  index: z
    .number()
    .int()
    .min(1)
    .nullish()
    .describe('The section number N from artifact_md_sections.'),
};

/**
 * One section's source lines, by heading or by the number artifact_md_sections shows.
 *
 * @example
 * ```ts
 * // artifact_md_section {"callId":"call_1","heading":"install"} → 'Section 3 "## Install", lines 12–40:\n12:## Install\n…'
 * ```
 */
export const sectionTool: ToolMethodDescriptor<SpooledMarkdownArtifact, typeof sectionArgs> = {
  name: 'artifact_md_section',
  description:
    'One section of a spooled Markdown output (its heading and everything under it), numbered, ' +
    'chosen by heading text or by its number N from artifact_md_sections. Give heading or index.',
  args: sectionArgs,
  run: async (artifact, { heading, index }, context) => {
    const { callId, signal } = context;
    if ((heading == null) === (index == null)) {
      throw new SpoolforgeError(
        'E_INVALID_TOOL_ARGS',
        'Give either heading or index (one of them)',
      );
    }
    const sections = await artifact.sections({ signal });
    const section =
      index == null ? sectionByHeading(sections, heading ?? '') : sectionByNumber(sections, index);
    const { start, end, depth } = section;
    const header = `Section ${section.index + 1} "${'#'.repeat(depth)} ${section.heading}", lines ${toModelLine(start)}–${end}:`;
    const continuation = (next: number) =>
      continueWith('artifact_cat', { callId, start: toModelLine(next), end });
    return (
      await showNumbered(header, artifact.lines(start, end, { signal }), continuation, context)
    ).text;
  },
};

function sectionByNumber(sections: readonly MarkdownSection[], number: number): MarkdownSection {
  const section = sections[number - 1];
  if (section) return section;
  throw new SpoolforgeError(
    'E_INVALID_TOOL_ARGS',
    sections.length === 0
      ? `No section ${number}: the document has no headings.`
      : `No section ${number}: there are ${sections.length} (1–${sections.length}); see artifact_md_sections.`,
  );
}

/** Room for the headings an error lists: enough to choose from, never a flood. */
const maxListedBytes = 4 * 1024;
/** A heading (or a model's guess at one) is quoted in an error up to this many characters. */
const maxQuotedChars = 200;

function quoted(text: string): string {
  return text.length > maxQuotedChars ? `${text.slice(0, maxQuotedChars)}…` : text;
}

function sectionByHeading(sections: readonly MarkdownSection[], heading: string): MarkdownSection {
  const matches = sectionsNamed(sections, heading);
  const [only, ...others] = matches;
  if (only && others.length === 0) return only;
  const candidates = matches.length > 0 ? matches : sections;
  let listed = '';
  for (const [position, { index, depth, heading: text, start }] of candidates.entries()) {
    const entry = `${index + 1}. ${'#'.repeat(depth)} ${quoted(text)} (line ${toModelLine(start)})`;
    if (Buffer.byteLength(listed) + Buffer.byteLength(entry) > maxListedBytes) {
      listed += `; … ${candidates.length - position} more (artifact_md_sections lists them all)`;
      break;
    }
    listed += listed === '' ? entry : `; ${entry}`;
  }
  const wanted = quoted(heading);
  throw new SpoolforgeError(
    'E_INVALID_TOOL_ARGS',
    matches.length > 0
      ? `${matches.length} sections are headed "${wanted}": ${listed}. Pass index instead.`
      : sections.length === 0
        ? `No section is headed "${wanted}": the document has no headings.`
        : `No section is headed "${wanted}". Headings: ${listed}.`,
  );
}

const textArgs = {
  startLine: z.number().int().min(1).nullish().describe('First line, 1-based (default 1).'),
  endLine: z.number().int().min(1).nullish().describe('Last line, inclusive (default: the last).'),
};

/**
 * Plain text (markup removed) of a line range, numbered with the real lines.
 *
 * @example
 * ```ts
 * // artifact_md_text {"callId":"call_1","startLine":1,"endLine":3} → "plain text of lines 1–3 of 200:\n1:Title\n3:Some text\n"
 * ```
 */
export const textTool: ToolMethodDescriptor<SpooledMarkdownArtifact, typeof textArgs> = {
  name: 'artifact_md_text',
  description:
    'The plain text of lines START to END (1-based, inclusive) of a spooled Markdown output: ' +
    'markup, link URLs, HTML and front matter removed, code kept; lines without text are left out.',
  args: textArgs,
  run: async (artifact, { startLine, endLine }, context) => {
    const { callId, signal } = context;
    const first = startLine ?? 1;
    const last = endLine ?? Number.MAX_SAFE_INTEGER;
    if (last < first) {
      throw new SpoolforgeError(
        'E_INVALID_TOOL_ARGS',
        `endLine (${last}) is before startLine (${first})`,
      );
    }
    const { lineCount } = await artifact.outline({ signal });
    if (first > lineCount) return `No lines to show: the document has ${lineCount} lines.`;
    const range = fromModelRange(first, Math.min(last, lineCount));
    const header = `plain text of lines ${first}–${range.end} of ${lineCount}:`;
    const continuation = (next: number) =>
      continueWith('artifact_md_text', { callId, startLine: toModelLine(next), endLine });
    const lines = artifact.textLines(range.start, range.end, { signal });
    const { text, empty } = await showNumbered(header, lines, continuation, context);
    return empty ? `No text in lines ${first}–${range.end}.` : text;
  },
};
