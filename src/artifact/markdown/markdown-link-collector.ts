import type { MarkdownDefinition, MarkdownLink } from './markdown-types.js';

/**
 * A link or image as found in one window: resolved (`url` set) or a reference to resolve once
 * every definition is known (`identifier` set).
 */
export interface PendingLink {
  lineNumber: number;
  text: string;
  url: string | undefined;
  title: string | undefined;
  identifier: string | undefined;
}

/**
 * Links with their URLs: references resolved through `definitions`; a reference to no
 * definition is dropped (its label only looked like a definition to the line scan).
 *
 * @example
 * ```ts
 * resolveLinks(collector.links, new Map([['DOCS', docsDefinition]]));
 * ```
 */
export function resolveLinks(
  pending: readonly PendingLink[],
  definitions: ReadonlyMap<string, MarkdownDefinition>,
): MarkdownLink[] {
  const resolved: MarkdownLink[] = [];
  for (const { lineNumber, text, url, title, identifier } of pending) {
    if (identifier === undefined) {
      resolved.push({ lineNumber, text, url: url ?? '', title });
      continue;
    }
    const definition = definitions.get(identifier);
    if (definition) {
      resolved.push({ lineNumber, text, url: definition.url, title: definition.title });
    }
  }
  return resolved;
}
