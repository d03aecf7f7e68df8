import { z } from 'zod';
import { toModelLine } from '../forge/model-lines.js';
import type { ToolMethodDescriptor } from '../forge/tool-method-descriptor.js';
import { frontmatterTool, sectionTool, textTool } from './markdown-line-tool-methods.js';
import {
  type Listing,
  renderListing,
  skipArgument,
  startLineArgument,
} from './markdown-tool-listing.js';
import type {
  MarkdownCodeBlock,
  MarkdownHeading,
  MarkdownLink,
  MarkdownSection,
  MarkdownTable,
} from './markdown-types.js';
import type { SpooledMarkdownArtifact } from './spooled-markdown-artifact.js';

const depthArgs = {
  depth: z
    .number()
    .int()
    .min(1)
    .max(6)
    .nullish()
    .describe('Only headings of this depth or shallower (1 = #, 2 = ##, …).'),
  startLine: startLineArgument,
};

const headingListing: Listing<MarkdownHeading> = {
  toolName: 'artifact_md_headings',
  noun: ['heading', 'headings'],
  lineOf: (heading) => heading.lineNumber,
  render: ({ depth, text }) => `${'#'.repeat(depth)} ${text}`,
  numbered: true,
};

const sectionListing: Listing<MarkdownSection> = {
  toolName: 'artifact_md_sections',
  noun: ['section', 'sections'],
  lineOf: (section) => section.start,
  render: ({ index, start, end, depth, heading }) =>
    `${index + 1}. lines ${toModelLine(start)}–${end} ${'#'.repeat(depth)} ${heading}`,
  numbered: false,
};

const headings: ToolMethodDescriptor<SpooledMarkdownArtifact, typeof depthArgs> = {
  name: 'artifact_md_headings',
  description:
    'The headings of a spooled Markdown output as `LINE:## Heading` (setext headings shown ' +
    'with # marks too). Headings inside code blocks are not headings; those in lists and ' +
    'block quotes are.',
  args: depthArgs,
  run: async (artifact, args, context) => {
    const found = await artifact.headings({ ...depthOf(args.depth), signal: context.signal });
    const empty =
      args.depth == null ? 'No headings.' : `No headings of depth ${args.depth} or less.`;
    return renderListing(headingListing, found, { args, empty }, context);
  },
};

const sections: ToolMethodDescriptor<SpooledMarkdownArtifact, typeof depthArgs> = {
  name: 'artifact_md_sections',
  description:
    'The sections of a spooled Markdown output: `N. lines A–B ## Heading`, each from its ' +
    'heading to before the next heading of the same or higher level. Read one with ' +
    'artifact_md_section {index: N} or artifact_cat.',
  args: depthArgs,
  run: async (artifact, args, context) => {
    const found = await artifact.sections({ ...depthOf(args.depth), signal: context.signal });
    const empty =
      'No sections: the document has no headings' +
      (args.depth == null ? '.' : ` of depth ${args.depth} or less.`);
    return renderListing(sectionListing, found, { args, empty }, context);
  },
};

const codeBlockArgs = {
  lang: z
    .string()
    .nullish()
    .describe('Only fenced blocks of this language (e.g. "ts"; ignores case).'),
  startLine: startLineArgument,
};

const codeBlocks: ToolMethodDescriptor<SpooledMarkdownArtifact, typeof codeBlockArgs> = {
  name: 'artifact_md_code_blocks',
  description:
    'The code blocks of a spooled Markdown output: `lines A–B: ```lang meta` for fenced ' +
    'blocks (fences included), `lines A–B: indented` for indented ones. Read one with artifact_cat.',
  args: codeBlockArgs,
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
    const listing = {
      toolName: 'artifact_md_code_blocks',
      noun: ['code block', 'code blocks'] as const,
      lineOf: (block: MarkdownCodeBlock) => block.start,
      render: ({ start, end, fenced, lang, meta }: MarkdownCodeBlock) =>
        `lines ${toModelLine(start)}–${end}: ` +
        (fenced ? `\`\`\`${lang ?? ''}${meta === undefined ? '' : ` ${meta}`}` : 'indented'),
      numbered: false,
    };
    return renderListing(listing, found, { args, empty }, context);
  },
};

const linkArgs = { startLine: startLineArgument, skip: skipArgument };

function linkTool(
  kind: 'links' | 'images',
): ToolMethodDescriptor<SpooledMarkdownArtifact, typeof linkArgs> {
  const name = `artifact_md_${kind}`;
  const mark = kind === 'images' ? '!' : '';
  return {
    name,
    description:
      kind === 'links'
        ? 'The links of a spooled Markdown output as `LINE:[text](url "title")`: inline, ' +
          'reference-style (resolved through their definitions) and autolinks.'
        : 'The images of a spooled Markdown output as `LINE:![alt](url "title")`.',
    args: linkArgs,
    run: async (artifact, args, context) => {
      const found = await artifact[kind]({ signal: context.signal });
      const listing = {
        toolName: name,
        noun: kind === 'links' ? (['link', 'links'] as const) : (['image', 'images'] as const),
        lineOf: (link: MarkdownLink) => link.lineNumber,
        render: ({ text, url, title }: MarkdownLink) =>
          `${mark}[${text}](${url}${title === undefined ? '' : ` "${title}"`})`,
        numbered: true,
      };
      return renderListing(
        listing,
        found,
        { args, empty: kind === 'links' ? 'No links.' : 'No images.' },
        context,
      );
    },
  };
}

const tableArgs = { startLine: startLineArgument };

const tables: ToolMethodDescriptor<SpooledMarkdownArtifact, typeof tableArgs> = {
  name: 'artifact_md_tables',
  description:
    'The tables (GFM) of a spooled Markdown output: `lines A–B: N columns (a | b), M rows`. ' +
    'Read one with artifact_cat.',
  args: tableArgs,
  run: async (artifact, args, context) => {
    const found = await artifact.tables({ signal: context.signal });
    const listing = {
      toolName: 'artifact_md_tables',
      noun: ['table', 'tables'] as const,
      lineOf: (table: MarkdownTable) => table.start,
      render: ({ start, end, columns, rowCount }: MarkdownTable) =>
        `lines ${toModelLine(start)}–${end}: ${columns.length} column${columns.length === 1 ? '' : 's'} ` +
        `(${columns.join(' | ')}), ${rowCount} row${rowCount === 1 ? '' : 's'}`,
      numbered: false,
    };
    return renderListing(listing, found, { args, empty: 'No tables.' }, context);
  },
};

function depthOf(depth: number | null | undefined): { depth?: number } {
  return depth == null ? {} : { depth };
}

/**
 * The queries a Markdown artifact adds to the base ones, as models see them (`artifact_md_*`,
 * names pinned: models and users rely on them). Lines are 1-based and inclusive; every result is bounded.
 *
 * @example
 * ```ts
 * markdownToolMethods.map((method) => method.name); // ['artifact_md_frontmatter', …]
 * ```
 */
export const markdownToolMethods: readonly ToolMethodDescriptor<SpooledMarkdownArtifact>[] =
  Object.freeze([
    frontmatterTool,
    headings,
    sections,
    sectionTool,
    codeBlocks,
    linkTool('links'),
    linkTool('images'),
    tables,
    textTool,
  ] as unknown as ToolMethodDescriptor<SpooledMarkdownArtifact>[]);
