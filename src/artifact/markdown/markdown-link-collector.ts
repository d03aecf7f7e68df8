import { type MarkdownToken, normalizeIdentifier } from './markdown-parse.js';
import type { MarkdownDefinition, MarkdownLink } from './markdown-types.js';
import { decodeMarkdownString } from './plain-text-of.js';

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
 * Reads a token's source and line in the window being walked.
 */
export interface TokenSource {
  raw(token: MarkdownToken): string;
  lineOf(token: MarkdownToken): number;
}

interface OpenMedia {
  link: PendingLink;
  hasResource: boolean;
  /** The label's source: a collapsed or shortcut reference's identifier. */
  label: string;
}

/**
 * Collects links, images and definitions from a window's tokens, in document order. The walker
 * feeds it every entered token, every exited token type, and the plain text of each closed
 * link label.
 *
 * @example
 * ```ts
 * const collector = new LinkCollector(source);
 * for (const [kind, token] of events) kind === 'enter' ? collector.enter(token) : collector.exit(token.type);
 * collector.links; // [{ lineNumber: 4, text: 'https://example.com', url: 'https://example.com', … }]
 * ```
 */
export class LinkCollector {
  readonly links: PendingLink[] = [];
  readonly images: PendingLink[] = [];
  readonly definitions: MarkdownDefinition[] = [];
  readonly #media: OpenMedia[] = [];
  #definition: MarkdownDefinition | undefined;
  readonly #source: TokenSource;

  constructor(source: TokenSource) {
    this.#source = source;
  }

  enter(token: MarkdownToken): void {
    // GFM's token types are not in micromark's typed map.
    const type: string = token.type;
    const raw = () => this.#source.raw(token);
    const lineNumber = () => this.#source.lineOf(token);
    const media = this.#media.at(-1);
    const definition = this.#definition;
    switch (type) {
      case 'link':
      case 'image': {
        const link = {
          lineNumber: lineNumber(),
          text: '',
          url: undefined,
          title: undefined,
          identifier: undefined,
        };
        (type === 'link' ? this.links : this.images).push(link);
        this.#media.push({ link, hasResource: false, label: '' });
        break;
      }
      case 'labelText':
        if (media) media.label = raw();
        break;
      case 'resource':
        if (media) media.hasResource = true;
        break;
      case 'resourceDestinationString':
        if (media) media.link.url = decodeMarkdownString(raw());
        break;
      case 'resourceTitleString':
        if (media) media.link.title = decodeMarkdownString(raw());
        break;
      case 'referenceString':
        if (media) media.link.identifier = normalizeIdentifier(raw());
        break;
      case 'autolinkProtocol':
      case 'literalAutolinkHttp':
      case 'autolinkEmail':
      case 'literalAutolinkEmail':
      case 'literalAutolinkWww': {
        const text = raw();
        const scheme = type.endsWith('Email') ? 'mailto:' : type.endsWith('Www') ? 'http://' : '';
        const url = scheme + text;
        this.links.push({
          lineNumber: lineNumber(),
          text,
          url,
          title: undefined,
          identifier: undefined,
        });
        break;
      }
      case 'definition':
        this.#definition = { identifier: '', lineNumber: lineNumber(), url: '', title: undefined };
        break;
      case 'definitionLabelString':
        if (definition) definition.identifier = normalizeIdentifier(raw());
        break;
      case 'definitionDestinationString':
        if (definition) definition.url = decodeMarkdownString(raw());
        break;
      case 'definitionTitleString':
        if (definition) definition.title = decodeMarkdownString(raw());
        break;
    }
  }

  /** The plain text of the innermost open link's or image's label. */
  labelClosed(text: string): void {
    const media = this.#media.at(-1);
    if (media) media.link.text = text;
  }

  exit(type: string): void {
    if (type === 'link' || type === 'image') {
      const media = this.#media.pop();
      // `[text][]` and `[text]` name their definition by their label.
      if (media && !media.hasResource) media.link.identifier ??= normalizeIdentifier(media.label);
    } else if (type === 'definition' && this.#definition) {
      this.definitions.push(this.#definition);
      this.#definition = undefined;
    }
  }
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
