import { z } from 'zod';
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

/**
 * The argument every listing tool takes to continue a cut result.
 *
 * @example
 * ```ts
 * const args = { depth: z.number().int().min(1).nullish(), startLine: startLineArgument };
 * ```
 */
export const startLineArgument = z
  .number()
  .int()
  .min(1)
  .nullish()
  .describe('List only what starts on this line (1-based) or later, to continue a cut result.');

/**
 * The argument that continues a listing cut among several entries of one line (links, images).
 *
 * @example
 * ```ts
 * const args = { startLine: startLineArgument, skip: skipArgument };
 * ```
 */
export const skipArgument = z
  .number()
  .int()
  .min(0)
  .nullish()
  .describe('How many entries of startLine to skip (set by a continuation).');

/**
 * How to list one kind of entry for a model.
 */
export interface Listing<Entry> {
  toolName: string;
  noun: readonly [singular: string, plural: string];
  /** The 0-based line an entry starts on: listings are in this order and continue by it. */
  lineOf(entry: Entry): number;
  render(entry: Entry): string;
  /** `N:rendered` (an entry on one line) rather than the rendered text alone (it names its lines). */
  numbered: boolean;
}

/**
 * Lists entries one per line, from `startLine` (1-based) on, skipping `skip` entries of that
 * line, cut at the result budget with the call that continues, and closed by a count (or by
 * `empty` when there is nothing to list).
 *
 * @example
 * ```ts
 * return renderListing(headingListing, headings, { args, empty: 'No headings.' }, context);
 * ```
 */
export function renderListing<Entry>(
  listing: Listing<Entry>,
  entries: readonly Entry[],
  request: { args: Record<string, unknown>; empty: string },
  { callId, limits }: ToolMethodContext,
): string {
  const { startLine, skip } = request.args as { startLine?: number | null; skip?: number | null };
  const first = startLine == null ? 0 : fromModelLine(startLine);
  let skipped = 0;
  const shown = entries.filter((entry) => {
    const line = listing.lineOf(entry);
    if (line < first) return false;
    return !(line === first && skipped++ < (skip ?? 0));
  });
  const [singular, plural] = listing.noun;
  if (shown.length === 0) return request.empty;
  const text = new BoundedText(limits);
  for (const [index, entry] of shown.entries()) {
    const line = listing.lineOf(entry);
    const rendered = listing.render(entry);
    const added = listing.numbered
      ? text.add(line, rendered)
      : text.addText(cutLine(rendered, text.maxLineChars));
    if (added) continue;
    // Entries of the cut line already shown are skipped by the continuation, not repeated.
    const before = shown.slice(0, index).filter((previous) => listing.lineOf(previous) === line);
    const alreadySkipped = line === first ? (skip ?? 0) : 0;
    const budget = limits.maxResultBytes ?? defaultResultLimits.maxResultBytes;
    const next = {
      ...request.args,
      callId,
      startLine: toModelLine(line),
      skip: before.length + alreadySkipped || undefined,
    };
    text.note(
      `[cut at ${formatBytes(budget)}: showing ${index} of ${shown.length} ${plural}. ` +
        `Continue with ${continueWith(listing.toolName, next)}]`,
    );
    return text.toString();
  }
  text.note(`${shown.length} ${shown.length === 1 ? singular : plural}.`);
  return text.toString();
}
