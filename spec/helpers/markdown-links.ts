/** A link of a Markdown document: its target as written and the line it is on (1-based). */
export interface MarkdownLink {
  target: string;
  line: number;
}

/** The document without fenced code blocks (blank lines in their place) and code spans. */
function prose(markdown: string): string[] {
  let fenced = false;
  return markdown.split('\n').map((line) => {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      return '';
    }
    return fenced ? '' : line.replace(/`[^`]*`/g, '');
  });
}

/** Every inline link `[text](target)` outside code. */
export function markdownLinks(markdown: string): MarkdownLink[] {
  return prose(markdown).flatMap((line, index) =>
    [...line.matchAll(/\]\(([^()\s]+)\)/g)].map((match) => ({
      target: match[1] ?? '',
      line: index + 1,
    })),
  );
}

/**
 * The anchors GitHub (and npm's page) gives the document's headings: the text lowercased,
 * markup and punctuation dropped, spaces as `-`, a repeated one numbered (`-1`, `-2`).
 */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const heading = fenced ? undefined : /^#{1,6} (.+)$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const slug = heading
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-');
    let anchor = slug;
    for (let repeat = 1; anchors.has(anchor); repeat++) anchor = `${slug}-${repeat}`;
    anchors.add(anchor);
  }
  return anchors;
}
