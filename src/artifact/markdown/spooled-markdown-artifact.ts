import { SpoolforgeError } from '../../shared/spoolforge-error.js';
import type { SpoolReader } from '../../spool/spool-reader.js';
import type { ArtifactLine } from '../artifact-line.js';
import { type QueryOptions, SpooledArtifact } from '../spooled-artifact.js';
import { buildMarkdownOutline } from './markdown-outline.js';
import { sectionsNamed, sectionsOf } from './markdown-sections.js';
import type {
  CodeBlockQueryOptions,
  DepthQueryOptions,
  MarkdownCodeBlock,
  MarkdownFrontmatter,
  MarkdownHeading,
  MarkdownLink,
  MarkdownOutline,
  MarkdownSection,
  MarkdownSectionText,
  MarkdownTable,
  SpooledMarkdownArtifactOptions,
} from './markdown-types.js';
import { plainTextLines } from './plain-text-lines.js';

/**
 * A spooled Markdown document with structural queries (CommonMark, GFM, YAML/TOML front
 * matter), parsed in windows of bounded size: by markdown-it for the outline, by micromark for
 * plain text; lines are 0-based, ranges half-open,
 * and line numbers count `\n` only, so a CRLF document answers as its LF twin.
 * A lone `\r` ends a line for Markdown structure (as CommonMark says) but not for numbering: a
 * heading after one is reported on the line of the `\n`-terminated line that holds it. The
 * outline is computed once and again only when the artifact has grown.
 *
 * @example
 * ```ts
 * await using artifact = SpooledMarkdownArtifact.fromFile('README.md');
 * for (const { lineNumber, depth, text } of await artifact.headings({ depth: 2 })) {
 *   console.log(lineNumber, '#'.repeat(depth), text);
 * }
 * const install = await artifact.section('Install');
 * ```
 */
export class SpooledMarkdownArtifact extends SpooledArtifact {
  static readonly defaultWindowBytes = 64 * 1024;
  readonly windowBytes: number;
  #outline: { byteLength: number; promise: Promise<MarkdownOutline> } | undefined;

  constructor(reader: SpoolReader, options: SpooledMarkdownArtifactOptions = {}) {
    super(reader, options);
    this.windowBytes = options.windowBytes ?? SpooledMarkdownArtifact.defaultWindowBytes;
    if (!(this.windowBytes > 0)) {
      throw new SpoolforgeError(
        'E_INVALID_ARGUMENT',
        `windowBytes must be positive, got ${this.windowBytes}`,
      );
    }
  }

  override get kind(): string {
    return 'markdown';
  }

  /** Everything the structural queries answer from, computed in one pass and cached (shared: read-only). */
  async outline(options: QueryOptions = {}): Promise<MarkdownOutline> {
    for (;;) {
      const byteLength = await this.byteLength();
      if (this.#outline?.byteLength !== byteLength) {
        const promise = buildMarkdownOutline(this, {
          windowBytes: this.windowBytes,
          signal: options.signal,
        });
        this.#outline = { byteLength, promise };
      }
      const current = this.#outline;
      try {
        return await current.promise;
      } catch (error) {
        if (this.#outline === current) this.#outline = undefined;
        // Another caller's signal stopped the shared pass: run it again under ours.
        const abortedByOther =
          SpoolforgeError.isInstance(error) &&
          error.code === 'E_ABORTED' &&
          !options.signal?.aborted;
        if (!abortedByOther) throw error;
      }
    }
  }

  /** The YAML (`---`) or TOML (`+++`) front matter at the start, if any. */
  async frontmatter(options: QueryOptions = {}): Promise<MarkdownFrontmatter | undefined> {
    return (await this.outline(options)).frontmatter;
  }

  /** Headings in document order, ATX and setext, wherever they are (block quotes, lists). */
  async headings(options: DepthQueryOptions = {}): Promise<MarkdownHeading[]> {
    const { headings } = await this.outline(options);
    const { depth } = options;
    return headings.filter((heading) => depth === undefined || heading.depth <= depth);
  }

  /** One section per heading (of at most `depth`), lines `[start, end)`. */
  async sections(options: DepthQueryOptions = {}): Promise<MarkdownSection[]> {
    const { headings, lineCount } = await this.outline(options);
    const sections = sectionsOf(headings, lineCount);
    const { depth } = options;
    return sections.filter((section) => depth === undefined || section.depth <= depth);
  }

  /**
   * One section and its source lines, by heading text (ignoring case and leading `#`s) or by
   * 0-based index; fails with `E_INVALID_ARGUMENT` naming what exists when none or several
   * match, and with `E_ARTIFACT_TOO_LARGE` past `maxStringBytes`.
   */
  async section(
    headingOrIndex: string | number,
    options: QueryOptions = {},
  ): Promise<MarkdownSectionText> {
    const sections = await this.sections(options);
    const found = this.#findSection(sections, headingOrIndex);
    return { ...found, lines: await this.cat(found.start, found.end, options) };
  }

  /** Fenced and indented code blocks, optionally only those of one language. */
  async codeBlocks(options: CodeBlockQueryOptions = {}): Promise<MarkdownCodeBlock[]> {
    const { codeBlocks } = await this.outline(options);
    const lang = options.lang?.toLowerCase();
    return codeBlocks.filter((block) => lang === undefined || block.lang?.toLowerCase() === lang);
  }

  /** Links: inline, reference-style (resolved through definitions anywhere), autolinks. */
  async links(options: QueryOptions = {}): Promise<MarkdownLink[]> {
    return [...(await this.outline(options)).links];
  }

  /** Images, with their alt text as `text`. */
  async images(options: QueryOptions = {}): Promise<MarkdownLink[]> {
    return [...(await this.outline(options)).images];
  }

  /** GFM tables with their header cells and body row count. */
  async tables(options: QueryOptions = {}): Promise<MarkdownTable[]> {
    return [...(await this.outline(options)).tables];
  }

  /** Plain text of lines `[start, end)` (see {@link plainTextLines}); `E_ARTIFACT_TOO_LARGE` past `maxStringBytes`. */
  async text(
    start = 0,
    end = Number.POSITIVE_INFINITY,
    options: QueryOptions = {},
  ): Promise<ArtifactLine[]> {
    const lines: ArtifactLine[] = [];
    let size = 0;
    for await (const line of this.textLines(start, end, options)) {
      size += line.text.length;
      if (size > this.maxStringBytes) {
        throw new SpoolforgeError(
          'E_ARTIFACT_TOO_LARGE',
          `text() would gather more than maxStringBytes (${this.maxStringBytes} bytes); iterate textLines() instead`,
        );
      }
      lines.push(line);
    }
    return lines;
  }

  /** Streams the plain text of lines `[start, end)`, parsing one window at a time. */
  async *textLines(
    start = 0,
    end = Number.POSITIVE_INFINITY,
    options: QueryOptions = {},
  ): AsyncGenerator<ArtifactLine> {
    if (start < 0 || end < start || !Number.isInteger(start)) {
      throw new SpoolforgeError('E_INVALID_ARGUMENT', `Invalid line range [${start}, ${end})`);
    }
    const outline = await this.outline(options);
    yield* plainTextLines(this, outline, start, end, options.signal);
  }

  #findSection(
    sections: readonly MarkdownSection[],
    headingOrIndex: string | number,
  ): MarkdownSection {
    if (typeof headingOrIndex === 'number') {
      const section = sections[headingOrIndex];
      if (section && Number.isInteger(headingOrIndex)) return section;
      throw new SpoolforgeError(
        'E_INVALID_ARGUMENT',
        `No section ${headingOrIndex}: there are ${sections.length} (indexes 0 to ${sections.length - 1})`,
      );
    }
    const matches = sectionsNamed(sections, headingOrIndex);
    const [only, ...others] = matches;
    if (only && others.length === 0) return only;
    const candidates = (matches.length > 0 ? matches : sections).slice(0, 50);
    const listed = candidates.map((section) => `${section.index}: ${section.heading}`).join('; ');
    throw new SpoolforgeError(
      'E_INVALID_ARGUMENT',
      matches.length > 0
        ? `${matches.length} sections are headed "${headingOrIndex}"; pick one by index: ${listed}`
        : `No section is headed "${headingOrIndex}"; headings: ${listed || 'none'}`,
    );
  }
}
