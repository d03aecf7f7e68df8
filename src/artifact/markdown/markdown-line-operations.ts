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
import type { ToolOperation } from '../forge/op-tool-method.js';
import type { ToolMethodContext } from '../forge/tool-method-descriptor.js';
import { sectionsNamed } from './markdown-sections.js';
import { type MarkdownToolArguments, markdownToolName } from './markdown-tool-arguments.js';
import type { MarkdownSection } from './markdown-types.js';
import type { SpooledMarkdownArtifact } from './spooled-markdown-artifact.js';

type Operation = ToolOperation<SpooledMarkdownArtifact, MarkdownToolArguments>;

/** The tool that reads any line range: a cut section or front matter continues with it. */
const readToolName = 'artifact_read';

/**
 * Shows numbered lines under a header, cut at the byte budget with the call that continues
 * (`next` names it, given the first 0-based line not shown).
 */
async function showNumbered(
  header: string,
  lines: AsyncIterable<ArtifactLine> | Iterable<ArtifactLine>,
  next: (line: number) => string,
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
      `[cut at ${formatBytes(budget)}: showing ${shown}. Continue with ${next(line.lineNumber)}]`,
    );
    break;
  }
  return { text: text.toString(), empty: first === undefined };
}

/** `frontmatter`: the YAML (---) or TOML (+++) front matter, numbered with its real lines. */
const frontmatter: Operation = {
  args: [],
  run: async (artifact, _args, context) => {
    const { callId, signal, continuation = continueWith } = context;
    const matter = await artifact.frontmatter({ signal });
    if (!matter) return 'No front matter.';
    const { format, start, end } = matter;
    const lines =
      matter.text === ''
        ? []
        : matter.text.split('\n').map((text, index) => ({ lineNumber: start + 1 + index, text }));
    const header = `${format.toUpperCase()} front matter, lines ${toModelLine(start)}–${end}:`;
    const next = (line: number) =>
      continuation(readToolName, { callId, start: toModelLine(line), end: end - 1 });
    return (await showNumbered(header, lines, next, context)).text;
  },
};

/** `section`: one section's source lines, by heading text or by its number from `sections`. */
const section: Operation = {
  args: ['heading', 'index'],
  run: async (artifact, { heading, index }, context) => {
    const { callId, signal, continuation = continueWith } = context;
    if ((heading == null) === (index == null)) {
      throw new SpoolforgeError(
        'E_INVALID_TOOL_ARGS',
        'Give either heading or index (one of them)',
      );
    }
    const sections = await artifact.sections({ signal });
    const listAll = continuation(markdownToolName, { callId, op: 'sections' });
    const found =
      index == null
        ? sectionByHeading(sections, heading ?? '', listAll)
        : sectionByNumber(sections, index, listAll);
    const { start, end, depth } = found;
    const header = `Section ${found.index + 1} "${'#'.repeat(depth)} ${found.heading}", lines ${toModelLine(start)}–${end}:`;
    const next = (line: number) =>
      continuation(readToolName, { callId, start: toModelLine(line), end });
    return (await showNumbered(header, artifact.lines(start, end, { signal }), next, context)).text;
  },
};

function sectionByNumber(
  sections: readonly MarkdownSection[],
  number: number,
  listAll: string,
): MarkdownSection {
  const found = sections[number - 1];
  if (found) return found;
  throw new SpoolforgeError(
    'E_INVALID_TOOL_ARGS',
    sections.length === 0
      ? `No section ${number}: the document has no headings.`
      : `No section ${number}: there are ${sections.length} (1–${sections.length}); see ${listAll}.`,
  );
}

/** Room for the headings an error lists: enough to choose from, never a flood. */
const maxListedBytes = 4 * 1024;
/** A heading (or a model's guess at one) is quoted in an error up to this many characters. */
const maxQuotedChars = 200;

function quoted(text: string): string {
  return text.length > maxQuotedChars ? `${text.slice(0, maxQuotedChars)}…` : text;
}

function sectionByHeading(
  sections: readonly MarkdownSection[],
  heading: string,
  listAll: string,
): MarkdownSection {
  const matches = sectionsNamed(sections, heading);
  const [only, ...others] = matches;
  if (only && others.length === 0) return only;
  const candidates = matches.length > 0 ? matches : sections;
  let listed = '';
  for (const [position, { index, depth, heading: text, start }] of candidates.entries()) {
    const entry = `${index + 1}. ${'#'.repeat(depth)} ${quoted(text)} (line ${toModelLine(start)})`;
    if (Buffer.byteLength(listed) + Buffer.byteLength(entry) > maxListedBytes) {
      listed += `; … ${candidates.length - position} more (${listAll} lists them all)`;
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

/**
 * `text`: the plain text (markup, link URLs, HTML and front matter removed, code kept) of lines
 * startLine to endLine, numbered with the real lines; lines without text are left out.
 */
const text: Operation = {
  args: ['startLine', 'endLine'],
  run: async (artifact, { startLine, endLine }, context) => {
    const { callId, signal, continuation = continueWith } = context;
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
    const next = (line: number) =>
      continuation(markdownToolName, { callId, op: 'text', startLine: toModelLine(line), endLine });
    const lines = artifact.textLines(range.start, range.end, { signal });
    const shown = await showNumbered(header, lines, next, context);
    return shown.empty ? `No text in lines ${first}–${range.end}.` : shown.text;
  },
};

/**
 * The `artifact_md` operations that show lines: `section` and `frontmatter` (source lines,
 * continued with `artifact_read`) and `text` (plain text, continued with itself).
 *
 * @example
 * ```ts
 * // artifact_md {"callId":"call_1","op":"section","heading":"install"}
 * // → 'Section 3 "## Install", lines 12–40:\n12:## Install\n…'
 * ```
 */
export const markdownLineOperations = { section, frontmatter, text } satisfies Record<
  string,
  Operation
>;
