import type { MarkdownIt, StateBlock, Token } from 'markdown-it';
import { normalizeIdentifier } from './markdown-parse.js';
import type { DefinitionSeeds } from './markdown-types.js';

/**
 * A markdown-it token; an inline child also carries `sourceOffset`, where it was pushed in its
 * inline token's `content`, so links and images get their own line.
 */
export type MarkdownItToken = Token & { sourceOffset?: number };

/**
 * A link reference definition as parsed: its markdown-it line and what it defines.
 */
export interface ParsedDefinition {
  line: number;
  identifier: string;
  url: string;
  title: string | undefined;
}

/**
 * Lines parsed by markdown-it: its block tokens (inline ones with children), the line of ours
 * each of its lines is on, the definitions in order, and how many lines front matter holds.
 */
export interface ParsedMarkdownTokens {
  readonly tokens: readonly MarkdownItToken[];
  /** The index in the parsed lines of each markdown-it line (a lone `\r` ends one of its lines). */
  lineOf(markdownItLine: number): number;
  readonly definitions: readonly ParsedDefinition[];
  /** Lines `[0, frontmatterEnd)` are front matter (0 when there is none). */
  readonly frontmatterEnd: number;
  readonly frontmatterFormat: 'yaml' | 'toml' | undefined;
}

/**
 * Options for {@link parseMarkdownTokens}.
 */
export interface ParseMarkdownTokensOptions {
  /** Labels defined anywhere in the document: a reference to one is a link in every window. */
  seeds: DefinitionSeeds;
  /** Recognise front matter: only at the start of the document, never of a later window. */
  frontmatter: boolean;
}

/** An href standing for a reference to a seeded label (NUL never survives markdown-it's input normalisation). */
export const referenceMarker = '\0';

const definitionsKey = Symbol('definitions');

/**
 * markdown-it, configured on first parse: CommonMark + GFM tables and strikethrough (GFM's
 * literal autolinks are found in text tokens: linkify-it wants known TLDs and finds bare domains).
 */
let parser: Promise<MarkdownIt> | undefined;

async function loadParser(): Promise<MarkdownIt> {
  const { default: markdownIt } = await import('markdown-it');
  const md = markdownIt('commonmark', { maxNesting: 100 });
  md.enable(['table', 'strikethrough']);
  // Entities stay tokens of their own: plain text decodes them as micromark's text does, and
  // literal autolinks see them as written.
  md.core.ruler.disable('text_join');
  // URLs are reported as written (escapes decoded), never percent-encoded, punycoded or refused.
  md.normalizeLink = (url) => url;
  md.normalizeLinkText = (text) => text;
  md.validateLink = () => true;
  const BaseState = md.inline.State;
  md.inline.State = class PositionedState extends BaseState {
    override push(...args: Parameters<InstanceType<typeof BaseState>['push']>) {
      const token: MarkdownItToken = super.push(...args);
      token.sourceOffset = this.pos;
      return token;
    }
    override pushPending() {
      const token: MarkdownItToken = super.pushPending();
      // Pending text never holds a line ending: it ends where the flush happens, on that line.
      token.sourceOffset = this.pos;
      return token;
    }
  };
  const reference = md.block.ruler.__rules__.find((rule) => rule.name === 'reference')?.fn;
  if (reference) md.block.ruler.at('reference', recordingReference(reference));
  return md;
}

type BlockRule = (
  state: StateBlock,
  startLine: number,
  endLine: number,
  silent: boolean,
) => boolean;

/**
 * The reference rule, recording each definition's line, URL and title (markdown-it keeps only
 * the first per label, and a seeded label already has its marker), and leaving `[^label]:` to
 * be a GFM footnote definition, which is no link definition.
 */
function recordingReference(reference: BlockRule): BlockRule {
  return (state, startLine, endLine, silent) => {
    const start = state.bMarks[startLine] ?? 0;
    if (state.src.startsWith('[^', start + (state.tShift[startLine] ?? 0))) return false;
    if (silent) return reference(state, startLine, endLine, true);
    const env = state.env;
    const own: Record<string, { href: string; title: string }> = Object.create(null);
    state.env = { references: own };
    let matched: boolean;
    try {
      matched = reference(state, startLine, endLine, false);
    } finally {
      state.env = env;
    }
    if (!matched) return false;
    for (const [label, { href, title }] of Object.entries(own)) {
      (env[definitionsKey] as ParsedDefinition[]).push({
        line: startLine,
        identifier: normalizeIdentifier(label),
        url: href,
        title: title === '' ? undefined : title,
      });
      const references = env.references as Record<string, unknown>;
      references[label] ??= { href, title };
    }
    return true;
  };
}

/** Seeded labels by markdown-it's key, each standing for its marker; built once per seeds. */
const seededReferences = new WeakMap<DefinitionSeeds, Record<string, unknown>>();

function referencesOf(md: MarkdownIt, seeds: DefinitionSeeds): Record<string, unknown> {
  let references = seededReferences.get(seeds);
  if (!references) {
    references = Object.create(null) as Record<string, unknown>;
    for (const identifier of seeds.definitions) {
      references[md.utils.normalizeReference(identifier)] = {
        href: referenceMarker + identifier,
        title: '',
      };
    }
    seededReferences.set(seeds, references);
  }
  return references;
}

const yamlFence = /^---[ \t]*\r?$/;
const tomlFence = /^\+\+\+[ \t]*\r?$/;

/** Front matter: a `---` or `+++` first line and a closing one like it; its end line, or 0. */
function frontmatterAt(lines: readonly string[]): { end: number; format: 'yaml' | 'toml' } {
  const first = lines[0] ?? '';
  const fence = yamlFence.test(first) ? yamlFence : tomlFence.test(first) ? tomlFence : undefined;
  if (fence) {
    for (let index = 1; index < lines.length; index++) {
      if (fence.test(lines[index] ?? '')) {
        return { end: index + 1, format: fence === yamlFence ? 'yaml' : 'toml' };
      }
    }
  }
  return { end: 0, format: 'yaml' };
}

/**
 * Parses lines (each given without its `\n`) with markdown-it: CommonMark, GFM tables and
 * strikethrough, and, optionally, YAML/TOML front matter (blanked before
 * parsing, so line numbers hold). A leading byte order mark is dropped.
 *
 * @example
 * ```ts
 * const { tokens, lineOf } = await parseMarkdownTokens(lines, { seeds, frontmatter: true });
 * ```
 */
export async function parseMarkdownTokens(
  lines: readonly string[],
  options: ParseMarkdownTokensOptions,
): Promise<ParsedMarkdownTokens> {
  parser ??= loadParser();
  const md = await parser;
  const first = lines[0];
  let parsedLines = first?.startsWith('\uFEFF') ? [first.slice(1), ...lines.slice(1)] : lines;
  const frontmatter = options.frontmatter ? frontmatterAt(parsedLines) : { end: 0, format: 'yaml' };
  if (frontmatter.end > 0) {
    parsedLines = [
      ...new Array<string>(frontmatter.end).fill(''),
      ...parsedLines.slice(frontmatter.end),
    ];
  }
  const text = `${parsedLines.join('\n')}\n`;
  const definitions: ParsedDefinition[] = [];
  const env = {
    references: Object.create(referencesOf(md, options.seeds)),
    [definitionsKey]: definitions,
  };
  const tokens = md.parse(text, env);
  const lineOf = text.includes('\r') ? lineMapOf(parsedLines) : (line: number) => line;
  return {
    tokens,
    lineOf,
    definitions,
    frontmatterEnd: frontmatter.end,
    frontmatterFormat: frontmatter.end > 0 ? (frontmatter.format as 'yaml' | 'toml') : undefined,
  };
}

/** markdown-it ends a line at a lone `\r` too: which of our lines each of its lines is on. */
function lineMapOf(lines: readonly string[]): (line: number) => number {
  const map: number[] = [];
  for (const [index, line] of lines.entries()) {
    map.push(index);
    for (
      let at = line.indexOf('\r');
      at !== -1 && at < line.length - 1;
      at = line.indexOf('\r', at + 1)
    ) {
      map.push(index);
    }
  }
  return (line) => map[line] ?? lines.length;
}
