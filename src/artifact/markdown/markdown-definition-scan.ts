import type { ArtifactLine } from '../artifact-line.js';
import { normalizeIdentifier } from './markdown-parse.js';
import type { DefinitionSeeds } from './markdown-types.js';

/**
 * Where a Markdown artifact's lines come from (a {@link SpooledArtifact}'s `lines`).
 *
 * @example
 * ```ts
 * const source: LineSource = artifact;
 * for await (const line of source.lines(0, 10)) console.log(line.text);
 * ```
 */
export interface LineSource {
  lines(
    start?: number,
    end?: number,
    options?: { signal?: AbortSignal | undefined },
  ): AsyncIterable<ArtifactLine>;
}

/**
 * A line that may start a definition, `[label]:` or a footnote's `[^label]:`, possibly inside
 * block quotes and list items. Labels spanning lines are not found (see {@link scanDefinitions}).
 */
const definitionStart = /^(?:[ \t>]|[-+*][ \t]|\d{1,9}[.)][ \t])*\[((?:[^\\[\]]|\\.){1,999})\]:/;

/**
 * Collects, with a cheap line scan, every label that may be defined anywhere in the document,
 * so that each window is parsed knowing them: CommonMark lets `[text][label]` come before
 * `[label]: url`, and the parser decides whether a reference is a link while parsing. The scan
 * over-approximates (a definition-like line inside code is included); references to a label
 * that turns out not to be a real definition are dropped after parsing. A label broken over
 * two lines is not seen, so a reference to it resolves only inside the same window.
 *
 * @example
 * ```ts
 * const seeds = await scanDefinitions(artifact, { signal });
 * ```
 */
export async function scanDefinitions(
  source: LineSource,
  options: { signal?: AbortSignal | undefined } = {},
): Promise<DefinitionSeeds> {
  const definitions = new Set<string>();
  const footnotes = new Set<string>();
  for await (const { text } of source.lines(0, Number.POSITIVE_INFINITY, options)) {
    if (!text.includes(']:')) continue;
    const label = definitionStart.exec(text)?.[1];
    if (label === undefined) continue;
    if (label.startsWith('^')) footnotes.add(normalizeIdentifier(label.slice(1)));
    else definitions.add(normalizeIdentifier(label));
  }
  return { definitions: [...definitions], footnotes: [...footnotes] };
}
