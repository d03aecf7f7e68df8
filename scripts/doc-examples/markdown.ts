// The free names of the TSDoc examples in src/artifact/markdown/ (see common.ts).

import type { InlineWalk } from '../../src/artifact/markdown/markdown-inline-walk.js';
import type { PendingLink } from '../../src/artifact/markdown/markdown-link-collector.js';
import type {
  MarkdownEvent,
  MarkdownToken,
  ParsedMarkdown,
} from '../../src/artifact/markdown/markdown-parse.js';
import type {
  MarkdownItToken,
  ParsedMarkdownTokens,
} from '../../src/artifact/markdown/markdown-token-parse.js';
import type { Listing } from '../../src/artifact/markdown/markdown-tool-listing.js';
import type {
  MarkdownOutlineWindow,
  MarkdownWindow,
  MarkdownWindowOptions,
} from '../../src/artifact/markdown/markdown-windows.js';
import type {
  DefinitionSeeds,
  GrepLine,
  MarkdownDefinition,
  MarkdownHeading,
  MarkdownOutline,
  MarkdownSection,
  ToolMethodContext,
} from '../../src/index.js';

export declare const parsed: ParsedMarkdown;
export declare const parsedTokens: ParsedMarkdownTokens;
export declare const events: MarkdownEvent[];
export declare const token: MarkdownToken;
export declare const text: string;
export declare const collector: { links: PendingLink[] };
export declare const docsDefinition: MarkdownDefinition;
export declare const seeds: DefinitionSeeds;
export declare const lines: string[];
export declare const prefix: string[];
export declare const size: number;
export declare const hardLimit: number;
export declare const startLine: number;
export declare const window: MarkdownOutlineWindow;
export declare const textWindow: MarkdownWindow;
export declare const options: MarkdownWindowOptions;
export declare const outline: MarkdownOutline;
export declare const sections: MarkdownSection[];
export declare const headings: MarkdownHeading[];
export declare const headingListing: Listing<MarkdownHeading>;
export declare const columns: string[];
export declare const context: ToolMethodContext;
export declare const args: Record<string, unknown>;
export declare const shown: GrepLine[];
export declare const inline: MarkdownItToken;
export declare const image: MarkdownItToken;
export declare const walk: InlineWalk;
