import { toModelLine } from '../forge/model-lines.js';
import type { ToolOperation } from '../forge/op-tool-method.js';
import type { MarkdownToolArguments } from './markdown-tool-arguments.js';
import { type Listing, renderListing } from './markdown-tool-listing.js';
import type {
  MarkdownCodeBlock,
  MarkdownHeading,
  MarkdownLink,
  MarkdownSection,
  MarkdownTable,
} from './markdown-types.js';
import type { SpooledMarkdownArtifact } from './spooled-markdown-artifact.js';

type Operation = ToolOperation<SpooledMarkdownArtifact, MarkdownToolArguments>;

const headingListing: Listing<MarkdownHeading> = {
  op: 'headings',
  noun: ['heading', 'headings'],
  lineOf: (heading) => heading.lineNumber,
  render: ({ depth, text }) => `${'#'.repeat(depth)} ${text}`,
  numbered: true,
};

const sectionListing: Listing<MarkdownSection> = {
  op: 'sections',
  noun: ['section', 'sections'],
  lineOf: (section) => section.start,
  render: ({ index, start, end, depth, heading }) =>
    `${index + 1}. lines ${toModelLine(start)}–${end} ${'#'.repeat(depth)} ${heading}`,
  numbered: false,
};

const codeListing: Listing<MarkdownCodeBlock> = {
  op: 'code',
  noun: ['code block', 'code blocks'],
  lineOf: (block) => block.start,
  render: ({ start, end, fenced, lang, meta }) =>
    `lines ${toModelLine(start)}–${end}: ` +
    (fenced ? `\`\`\`${lang ?? ''}${meta === undefined ? '' : ` ${meta}`}` : 'indented'),
  numbered: false,
};

const tableListing: Listing<MarkdownTable> = {
  op: 'tables',
  noun: ['table', 'tables'],
  lineOf: (table) => table.start,
  render: ({ start, end, columns, rowCount }) =>
    `lines ${toModelLine(start)}–${end}: ${columns.length} column${columns.length === 1 ? '' : 's'} ` +
    `(${columns.join(' | ')}), ${rowCount} row${rowCount === 1 ? '' : 's'}`,
  numbered: false,
};

function depthOf(depth: number | null | undefined): { depth?: number } {
  return depth == null ? {} : { depth };
}

/** `headings`: `LINE:## Heading` (setext headings shown with # marks too). */
const headings: Operation = {
  args: ['depth', 'startLine'],
  run: async (artifact, args, context) => {
    const found = await artifact.headings({ ...depthOf(args.depth), signal: context.signal });
    const empty =
      args.depth == null ? 'No headings.' : `No headings of depth ${args.depth} or less.`;
    return renderListing(headingListing, found, { args, empty }, context);
  },
};

/** `sections`: `N. lines A–B ## Heading`, each to before the next heading of its level or higher. */
const sections: Operation = {
  args: ['depth', 'startLine'],
  run: async (artifact, args, context) => {
    const found = await artifact.sections({ ...depthOf(args.depth), signal: context.signal });
    const empty =
      'No sections: the document has no headings' +
      (args.depth == null ? '.' : ` of depth ${args.depth} or less.`);
    return renderListing(sectionListing, found, { args, empty }, context);
  },
};

/** `code`: `lines A–B: ```lang meta` for fenced blocks (fences included), `indented` for others. */
const code: Operation = {
  args: ['lang', 'startLine'],
  run: async (artifact, args, context) => {
    const { signal } = context;
    const found = await artifact.codeBlocks({
      ...(args.lang == null ? {} : { lang: args.lang }),
      signal,
    });
    let empty = 'No code blocks.';
    if (args.lang != null && found.length === 0) {
      const langs = new Set(
        (await artifact.codeBlocks({ signal })).map((block) => block.lang ?? '(none)'),
      );
      empty = `No code blocks with lang "${args.lang}". Languages present: ${[...langs].join(', ') || 'none'}.`;
    }
    return renderListing(codeListing, found, { args, empty }, context);
  },
};

/**
 * `links` (inline, reference-style resolved through their definitions, autolinks) or `images`,
 * as `LINE:[text](url "title")`; several a line continue by `index`.
 */
function linkOperation(kind: 'links' | 'images'): Operation {
  const mark = kind === 'images' ? '!' : '';
  const listing: Listing<MarkdownLink> = {
    op: kind,
    noun: kind === 'links' ? ['link', 'links'] : ['image', 'images'],
    lineOf: (link) => link.lineNumber,
    render: ({ text, url, title }) =>
      `${mark}[${text}](${url}${title === undefined ? '' : ` "${title}"`})`,
    numbered: true,
  };
  const empty = kind === 'links' ? 'No links.' : 'No images.';
  return {
    args: ['startLine', 'index'],
    run: async (artifact, args, context) => {
      const found = await artifact[kind]({ signal: context.signal });
      return renderListing(listing, found, { args, empty }, context);
    },
  };
}

/** `tables` (GFM): `lines A–B: N columns (a | b), M rows`. */
const tables: Operation = {
  args: ['startLine'],
  run: async (artifact, args, context) => {
    const found = await artifact.tables({ signal: context.signal });
    return renderListing(tableListing, found, { args, empty: 'No tables.' }, context);
  },
};

/**
 * The `artifact_md` operations that list entries with their lines: `headings`, `sections`,
 * `code`, `links`, `images` and `tables`. Each continues a cut result from `startLine`.
 *
 * @example
 * ```ts
 * Object.keys(markdownListingOperations); // ['headings', 'sections', 'code', …]
 * ```
 */
export const markdownListingOperations = {
  headings,
  sections,
  code,
  links: linkOperation('links'),
  images: linkOperation('images'),
  tables,
} satisfies Record<string, Operation>;
