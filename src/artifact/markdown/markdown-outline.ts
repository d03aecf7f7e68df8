import { throwIfAborted } from '../../shared/spoolforge-error.js';
import { type LineSource, scanDefinitions } from './markdown-definition-scan.js';
import { type PendingLink, resolveLinks } from './markdown-link-collector.js';
import type { MarkdownDefinition, MarkdownOutline } from './markdown-types.js';
import { outlineWindow } from './markdown-window-outline.js';
import { markdownWindows } from './markdown-windows.js';

/**
 * Options for {@link buildMarkdownOutline}.
 */
export interface OutlineOptions {
  windowBytes: number;
  signal?: AbortSignal | undefined;
}

/**
 * Reads a Markdown document twice, streaming: a line scan for definition labels, then one
 * parse per window (see {@link markdownWindows}), joining a code block or table that a forced
 * cut split, and resolving reference links and images once every definition is known (first
 * definition wins, as in CommonMark; a reference to no real definition is not a link).
 *
 * @example
 * ```ts
 * const outline = await buildMarkdownOutline(artifact, { windowBytes: 64 * 1024 });
 * console.log(outline.headings.length, outline.windows.length);
 * ```
 */
export async function buildMarkdownOutline(
  source: LineSource,
  options: OutlineOptions,
): Promise<MarkdownOutline> {
  const { signal } = options;
  const seeds = await scanDefinitions(source, { signal });
  const outline: MarkdownOutline = {
    lineCount: 0,
    frontmatter: undefined,
    headings: [],
    codeBlocks: [],
    links: [],
    images: [],
    tables: [],
    definitions: [],
    windows: [],
    seeds,
  };
  const links: PendingLink[] = [];
  const images: PendingLink[] = [];
  const definitions = new Map<string, MarkdownDefinition>();
  for await (const window of markdownWindows(source, { ...options, seeds })) {
    throwIfAborted(signal);
    const found = outlineWindow(window);
    const { startLine, lineCount, prefix } = window;
    outline.windows.push({ startLine, lineCount, prefix });
    outline.lineCount = startLine + lineCount;
    outline.frontmatter ??= found.frontmatter;
    outline.headings.push(...found.headings);
    const lastCodeBlock = outline.codeBlocks.at(-1);
    if (found.continuedCodeBlock && lastCodeBlock) lastCodeBlock.end = found.continuedCodeBlock.end;
    outline.codeBlocks.push(...found.codeBlocks);
    const lastTable = outline.tables.at(-1);
    if (found.continuedTable && lastTable) {
      lastTable.end = found.continuedTable.end;
      lastTable.rowCount += found.continuedTable.rowCount;
    }
    outline.tables.push(...found.tables);
    links.push(...found.links);
    images.push(...found.images);
    for (const definition of found.definitions) {
      if (!definitions.has(definition.identifier))
        definitions.set(definition.identifier, definition);
    }
  }
  outline.links = resolveLinks(links, definitions);
  outline.images = resolveLinks(images, definitions);
  outline.definitions = [...definitions.values()];
  return outline;
}
