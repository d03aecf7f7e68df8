import type { ArtifactLine } from '../artifact-line.js';
import type { QueryOptions, SpooledArtifactOptions } from '../spooled-artifact.js';

/**
 * A heading: its 0-based line, depth 1–6, plain text, and how it was written (`# Title` is
 * `atx`; a paragraph underlined with `===` or `---` is `setext`, depth 1 or 2).
 */
export interface MarkdownHeading {
  lineNumber: number;
  depth: number;
  text: string;
  style: 'atx' | 'setext';
}

/**
 * A section: lines `[start, end)` from a heading to before the next heading of the same or a
 * smaller depth (or the end). `index` is the heading's 0-based position among all headings.
 */
export interface MarkdownSection {
  index: number;
  heading: string;
  depth: number;
  start: number;
  end: number;
}

/**
 * A section with its source lines.
 *
 * @example
 * ```ts
 * const { heading, lines } = await readme.section('Install');
 * ```
 */
export interface MarkdownSectionText extends MarkdownSection {
  lines: ArtifactLine[];
}

/**
 * A code block, lines `[start, end)` including its fences. `lang` and `meta` are the fence's
 * info string split at the first space; both are undefined for indented code.
 */
export interface MarkdownCodeBlock {
  start: number;
  end: number;
  lang: string | undefined;
  meta: string | undefined;
  fenced: boolean;
}

/**
 * A link or an image: the 0-based line it starts on, its text (an image's alt text), its URL
 * (reference-style ones resolved through their definition) and title.
 */
export interface MarkdownLink {
  lineNumber: number;
  text: string;
  url: string;
  title: string | undefined;
}

/**
 * A GFM table, lines `[start, end)`: its header cells and how many body rows it has.
 */
export interface MarkdownTable {
  start: number;
  end: number;
  columns: string[];
  rowCount: number;
}

/**
 * Front matter at the very start of the document, lines `[start, end)` including its fences;
 * `text` is what lies between the fences (without `\r`).
 */
export interface MarkdownFrontmatter {
  format: 'yaml' | 'toml';
  start: number;
  end: number;
  text: string;
}

/**
 * A link reference definition (`[label]: url "title"`); `identifier` is the label normalized
 * the way CommonMark matches references (whitespace collapsed, case folded).
 */
export interface MarkdownDefinition {
  identifier: string;
  lineNumber: number;
  url: string;
  title: string | undefined;
}

/**
 * Lines `[startLine, startLine + lineCount)` parsed together as one window. `prefix` holds
 * lines from before the window that are parsed ahead of it (never reported) when a forced cut
 * fell inside a fenced code block (its opening fence) or a table (its header and delimiter row).
 */
export interface MarkdownWindowSpan {
  startLine: number;
  lineCount: number;
  prefix: readonly string[];
}

/**
 * Labels that look like definitions, found by a line scan before parsing, so that a reference
 * used in one window resolves to a definition in a later one.
 */
export interface DefinitionSeeds {
  definitions: readonly string[];
  footnotes: readonly string[];
}

/**
 * Everything one pass over a Markdown artifact finds, in document order, with 0-based lines.
 *
 * @example
 * ```ts
 * const { headings, tables } = await readme.outline();
 * ```
 */
export interface MarkdownOutline {
  lineCount: number;
  frontmatter: MarkdownFrontmatter | undefined;
  headings: MarkdownHeading[];
  codeBlocks: MarkdownCodeBlock[];
  links: MarkdownLink[];
  images: MarkdownLink[];
  tables: MarkdownTable[];
  /** First definition per identifier, as CommonMark resolves references. */
  definitions: MarkdownDefinition[];
  /** How the document was cut for parsing; {@link SpooledMarkdownArtifact.text} re-parses these. */
  windows: MarkdownWindowSpan[];
  seeds: DefinitionSeeds;
}

/**
 * Options for a {@link SpooledMarkdownArtifact}.
 */
export interface SpooledMarkdownArtifactOptions extends SpooledArtifactOptions {
  /**
   * How much text is parsed at a time (UTF-16 code units, ≈ bytes); a window may grow to 4×
   * this when no safe cut appears sooner. Default 64 KiB: the outline's parse (markdown-it) is
   * linear, but plain text re-parses a window with micromark, whose time and memory per byte
   * grow with its input (measured: ~290 KiB/s and ~70 MB of events at 64 KiB, ~50 KiB/s and
   * ~300 MB at 512 KiB).
   */
  windowBytes?: number;
}

/**
 * Options for queries that filter by heading depth.
 *
 * @example
 * ```ts
 * await readme.headings({ depth: 2 }); // # and ## only
 * ```
 */
export interface DepthQueryOptions extends QueryOptions {
  /** Only headings of this depth or shallower (1–6). */
  depth?: number;
}

/**
 * Options for {@link SpooledMarkdownArtifact.codeBlocks}.
 *
 * @example
 * ```ts
 * await readme.codeBlocks({ lang: 'ts' });
 * ```
 */
export interface CodeBlockQueryOptions extends QueryOptions {
  /** Only fenced blocks with this language (ignoring case). */
  lang?: string;
}
