import type { MarkdownHeading, MarkdownSection } from './markdown-types.js';

/**
 * One section per heading: from the heading's line to before the next heading of the same or a
 * smaller depth, or to `lineCount`.
 *
 * @example
 * ```ts
 * sectionsOf([{ lineNumber: 0, depth: 1, text: 'A', style: 'atx' }], 10);
 * // [{ index: 0, heading: 'A', depth: 1, start: 0, end: 10 }]
 * ```
 */
export function sectionsOf(
  headings: readonly MarkdownHeading[],
  lineCount: number,
): MarkdownSection[] {
  const sections: MarkdownSection[] = [];
  const open: MarkdownSection[] = [];
  for (const [index, { lineNumber, depth, text }] of headings.entries()) {
    while ((open.at(-1)?.depth ?? 0) >= depth) {
      const closed = open.pop();
      if (closed) closed.end = lineNumber;
    }
    const section = { index, heading: text, depth, start: lineNumber, end: lineCount };
    sections.push(section);
    open.push(section);
  }
  return sections;
}

/**
 * The sections whose heading reads `heading`, ignoring case, surrounding space and leading `#`
 * marks (`"## Install"` finds the heading `Install`).
 *
 * @example
 * ```ts
 * const [only, ...others] = sectionsNamed(sections, 'install');
 * ```
 */
export function sectionsNamed(
  sections: readonly MarkdownSection[],
  heading: string,
): MarkdownSection[] {
  const wanted = comparable(heading.replace(/^\s*#+\s+/, ''));
  return sections.filter((section) => comparable(section.heading) === wanted);
}

function comparable(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase();
}
