import { formatBytes } from '../../shared/format-bytes.js';
import {
  BoundedText,
  continueWith,
  cutLine,
  defaultResultLimits,
  fromModelLine,
  toModelLine,
} from '../forge/model-lines.js';
import type { ToolMethodContext } from '../forge/tool-method-descriptor.js';
import { type MarkdownToolArguments, markdownToolName } from './markdown-tool-arguments.js';

/**
 * How to list one kind of entry for a model.
 */
export interface Listing<Entry> {
  /** The `artifact_md` operation that lists them: the continuation calls it again. */
  op: string;
  noun: readonly [singular: string, plural: string];
  /** The 0-based line an entry starts on: listings are in this order and continue by it. */
  lineOf(entry: Entry): number;
  render(entry: Entry): string;
  /** `N:rendered` (an entry on one line) rather than the rendered text alone (it names its lines). */
  numbered: boolean;
}

/**
 * Lists the entries that start on `startLine` (1-based) or later, from the `index`-th of them
 * on (1-based; only the operations that list several entries a line read it), one per line,
 * cut at the result budget with the `artifact_md` call that continues, and closed by a count
 * (or by `empty` when there is nothing to list).
 *
 * @example
 * ```ts
 * return renderListing(headingListing, headings, { args, empty: 'No headings.' }, context);
 * ```
 */
export function renderListing<Entry>(
  listing: Listing<Entry>,
  entries: readonly Entry[],
  request: { args: MarkdownToolArguments; empty: string },
  { callId, limits, continuation = continueWith }: ToolMethodContext,
): string {
  const { startLine, index } = request.args;
  const first = startLine == null ? 0 : fromModelLine(startLine);
  const listed = entries.filter((entry) => listing.lineOf(entry) >= first);
  const skipped = index == null ? 0 : index - 1;
  const shown = listed.slice(skipped);
  const [singular, plural] = listing.noun;
  if (shown.length === 0) return request.empty;
  const text = new BoundedText(limits);
  for (const [position, entry] of shown.entries()) {
    const line = listing.lineOf(entry);
    const rendered = listing.render(entry);
    const added = listing.numbered
      ? text.add(line, rendered)
      : text.addText(cutLine(rendered, text.maxLineChars));
    if (added) continue;
    // The continuation starts at the cut entry's line, past the entries of it already listed.
    const before = listed
      .slice(0, skipped + position)
      .filter((previous) => listing.lineOf(previous) === line).length;
    const budget = limits.maxResultBytes ?? defaultResultLimits.maxResultBytes;
    const next = continuation(markdownToolName, {
      callId,
      op: listing.op,
      ...request.args,
      startLine: toModelLine(line),
      index: before === 0 ? undefined : before + 1,
    });
    text.note(
      `[cut at ${formatBytes(budget)}: showing ${position} of ${shown.length} ${plural}. ` +
        `Continue with ${next}]`,
    );
    return text.toString();
  }
  text.note(`${shown.length} ${shown.length === 1 ? singular : plural}.`);
  return text.toString();
}
