import { opToolMethod } from '../forge/op-tool-method.js';
import type { ToolMethodDescriptor } from '../forge/tool-method-descriptor.js';
import { markdownLineOperations } from './markdown-line-operations.js';
import { markdownListingOperations } from './markdown-listing-operations.js';
import { markdownToolArguments, markdownToolName } from './markdown-tool-arguments.js';
import type { SpooledMarkdownArtifact } from './spooled-markdown-artifact.js';

const { headings, sections, code, links, images, tables } = markdownListingOperations;
const { section, frontmatter, text } = markdownLineOperations;

/**
 * `artifact_md {callId, op, heading?, index?, depth?, lang?, startLine?, endLine?}`: the
 * structure of a spooled Markdown output, one `op` at a time — `headings`, `sections`,
 * `section`, `code`, `links`, `images`, `tables`, `frontmatter`, `text`. Lines are 1-based and
 * inclusive; every result is bounded and a cut one names the call that continues it; an
 * argument the chosen op does not read is an `E_INVALID_TOOL_ARGS` naming those it does.
 *
 * @example
 * ```ts
 * defaultArtifactKinds.get('markdown')?.toolMethods.includes(artifactMd); // true
 * // artifact_md {"callId":"call_1","op":"headings","depth":2} → '8:## Install\n…'
 * ```
 */
export const artifactMd: ToolMethodDescriptor<SpooledMarkdownArtifact> = opToolMethod({
  name: markdownToolName,
  description:
    "A spooled Markdown output's structure, lines 1-based. op: headings|sections (depth: " +
    'deepest level), section (heading text or index N from sections), code (lang), ' +
    'links|images, tables, frontmatter, text (plain text of startLine..endLine). startLine: ' +
    'list from that line.',
  args: markdownToolArguments,
  operations: { headings, sections, section, code, links, images, tables, frontmatter, text },
});
