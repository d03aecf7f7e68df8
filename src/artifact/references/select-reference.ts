import { formatBytes } from '../../shared/format-bytes.js';
import { quoteInput } from '../../shared/quote-input.js';
import { newline } from '../../spool/newlines.js';
import { SliceSpoolReader } from '../../spool/slice-spool-reader.js';
import { decodeUtf8 } from '../decode-utf8.js';
import { streamGrepBytes } from '../grep-artifact.js';
import { compactJsonBytes } from '../json/compact-json-bytes.js';
import { SpooledJsonArtifact } from '../json/spooled-json-artifact.js';
import { spool } from '../spool.js';
import { SpooledArtifact } from '../spooled-artifact.js';
import {
  badReference,
  describeReference,
  lineSelection,
  type OutputReference,
} from './artifact-reference.js';

/** A catastrophic `grep` or `json` selector fails after this long instead of holding the turn. */
const selectTimeout = 10_000;

/**
 * The bytes the inline values of one call may still take: every value substituted into the
 * arguments counts, so a call of many references stays bounded as one of a single reference.
 */
export class ReferenceBudget {
  readonly limit: number;
  #left: number;

  constructor(limit: number) {
    this.limit = limit;
    this.#left = limit;
  }

  /** Counts `bytes` more of `reference`'s value; `E_BAD_REFERENCE` past the limit. */
  take(bytes: number, reference: OutputReference, advice?: string): void {
    this.fits(bytes, reference, advice);
    this.#left -= bytes;
  }

  /**
   * `E_BAD_REFERENCE` when `bytes` more would be past the limit, saying how to select less
   * (`advice`, else the general way); counts nothing.
   */
  fits(bytes: number, reference: OutputReference, advice = selectLess): void {
    if (bytes > this.#left) {
      throw badReference(
        `${describeReference(reference)} is over the ${formatBytes(this.limit)} a tool's arguments may take from references (maxReferenceBytes); ${advice}`,
      );
    }
  }
}

const selectLess = 'select less (lines, json, grep), or give the tool an artifact argument';

/**
 * What `reference` selects of `artifact`, as the value that replaces it in the arguments: the
 * whole text, the text of a line range or of the lines a grep matches (lines joined with
 * `\n`), or the one JSON value a JSONPath selects. Counted against `budget`.
 */
export async function selectValue(
  artifact: SpooledArtifact,
  reference: OutputReference,
  options: { budget: ReferenceBudget; signal: AbortSignal },
): Promise<unknown> {
  const { budget, signal } = options;
  if (reference.json !== undefined) {
    const value = await selectJson(artifact, reference, reference.json, signal);
    // Weighed as compact JSON without writing it: a value of many MiB stops the count at the
    // bound. Not by its bytes in the output, whose whitespace a pretty-printed one may shed.
    const bytes = compactJsonBytes(value, budget.limit);
    const size =
      bytes > budget.limit ? `more than ${formatBytes(budget.limit)}` : formatBytes(bytes);
    budget.take(bytes, reference, `its value is ${size} as JSON; ${selectLess}`);
    return value;
  }
  if (reference.lines === undefined && reference.grep === undefined) {
    // The size says whether it fits before a byte is read.
    budget.take(await artifact.byteLength(), reference);
    return artifact.asString({ signal });
  }
  const lines: string[] = [];
  const add = (text: string) => {
    budget.take(Buffer.byteLength(text) + (lines.length > 0 ? 1 : 0), reference);
    lines.push(text);
  };
  if (reference.lines !== undefined) {
    // The range's size says whether it fits before its lines are read: a selected line of
    // hundreds of MiB is refused, not assembled and decoded first.
    const { start, end } = await lineRange(artifact, reference.lines, signal);
    const from = await artifact.lineOffset(start, { signal });
    const to = await artifact.lineOffset(end, { signal });
    budget.fits(to - from - 1, reference);
    for await (const line of artifact.lines(start, end, { signal })) add(line.text);
  } else {
    await grepLines(artifact, reference, { budget, signal }, (text) => lines.push(text));
  }
  return lines.join('\n');
}

/**
 * What `reference` selects of `artifact`, as an artifact for a tool that takes one: the output
 * itself when the reference selects all of it; a line range as a view of the output's own
 * bytes (read in place, of any size: nothing is copied); a grep or JSONPath selection gathered
 * within `budget` (so within `maxReferenceBytes`) and spooled. `created` says whether the
 * caller must close it.
 */
export async function selectArtifact(
  artifact: SpooledArtifact,
  reference: OutputReference,
  options: { budget: ReferenceBudget; signal: AbortSignal },
): Promise<{ artifact: SpooledArtifact; created: boolean }> {
  const { signal } = options;
  if (reference.lines === undefined && reference.json === undefined && reference.grep === undefined)
    return { artifact, created: false };
  if (reference.lines !== undefined) {
    const { start, end } = await lineRange(artifact, reference.lines, signal);
    const from = await artifact.lineOffset(start, { signal });
    let to = await artifact.lineOffset(end, { signal });
    // The lines as the inline value has them: without the last one's `\n`.
    const [last] = to > from ? await artifact.reader.read(to - 1, 1, { signal }) : [];
    if (last === newline) to--;
    const reader = new SliceSpoolReader(artifact.reader, { start: from, end: to });
    const { maxStringBytes } = artifact;
    return { artifact: new SpooledArtifact(reader, { maxStringBytes }), created: true };
  }
  const value = await selectValue(artifact, reference, options);
  const text = typeof value === 'string' ? value : (JSON.stringify(value, null, 2) ?? 'null');
  return { artifact: await spool(text, { signal }), created: true };
}

/** The lines `[start, end)` a `lines` selector names, checked against the output's line count. */
async function lineRange(
  artifact: SpooledArtifact,
  lines: string,
  signal: AbortSignal,
): Promise<{ start: number; end: number }> {
  const { start, end } = lineSelection(lines);
  const total = await artifact.lineCount({ signal });
  if (start >= total) {
    throw badReference(
      `"lines":"${quoteInput(lines, 40)}" starts past the end: the output has ${total} lines`,
    );
  }
  return { start, end: Math.min(end, total) };
}

/**
 * The lines `reference.grep` matches, to `add`, counted against `budget` as they are read: a
 * line is weighed by its bytes before it is decoded (its text is never smaller), so the grep
 * stops at the first line past the bound without making a string of it.
 */
async function grepLines(
  artifact: SpooledArtifact,
  reference: OutputReference,
  options: { budget: ReferenceBudget; signal: AbortSignal },
  add: (text: string) => void,
): Promise<void> {
  const { budget, signal } = options;
  let over: unknown;
  let count = 0;
  const { matchCount } = await streamGrepBytes(
    artifact,
    reference.grep as string,
    { timeout: selectTimeout, signal, whenBusy: 'fail' },
    (bytes, lineNumber) => {
      const separator = count > 0 ? 1 : 0;
      const advice = `its match on line ${lineNumber + 1} (${formatBytes(bytes.length)}) is past it after ${count} line${count === 1 ? '' : 's'}; narrow the regex, or select a "lines" range`;
      try {
        budget.fits(bytes.length + separator, reference, advice);
        const text = decodeUtf8(bytes);
        budget.take(Buffer.byteLength(text) + separator, reference, advice);
        add(text);
        count++;
        return true;
      } catch (error) {
        over = error;
        return false;
      }
    },
  );
  if (over !== undefined) throw over;
  if (matchCount === 0) throw badReference(`${describeReference(reference)} matches no line`);
}

async function selectJson(
  artifact: SpooledArtifact,
  reference: OutputReference,
  path: string,
  signal: AbortSignal,
): Promise<unknown> {
  if (!(artifact instanceof SpooledJsonArtifact)) {
    throw badReference(
      `${describeReference(reference)}: "json" selects from a JSON output, and "${quoteInput(reference.$artifact, 100)}" is ${artifact.kind}; use "lines" or "grep"`,
    );
  }
  const matches = await artifact.query(path, { limit: 2, signal, timeout: selectTimeout });
  if (matches.length === 1) return matches[0]?.value;
  throw badReference(
    matches.length === 0
      ? `${describeReference(reference)} selects nothing`
      : `${describeReference(reference)} selects more than one value (${matches.map((match) => match.path).join(', ')}, …); a reference takes exactly one: narrow the JSONPath`,
  );
}
