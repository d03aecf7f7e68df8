// The free names of the TSDoc examples in src/serve/ (see common.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ArtifactKinds, LinkSigner, ResultLimits } from '../../src/index.js';
import type { SafeHtml } from '../../src/serve/html-escape.js';
import type { ViewerLinks } from '../../src/serve/viewer-links.js';
import type { PageFrame } from '../../src/serve/viewer-pages.js';
import type { ViewerQuery } from '../../src/serve/viewer-query.js';
import type { QueryPool } from '../../src/shared/query-pool.js';

export declare const request: IncomingMessage;
export declare const response: ServerResponse;
export declare const frame: PageFrame;
export declare const links: ViewerLinks;
export declare const page: string;
export declare const nonce: string;
export declare const name: string;
export declare const row: SafeHtml;
export declare const query: ViewerQuery;
export declare const url: URL;
export declare const signer: LinkSigner;
export declare const queries: QueryPool;
export declare const route: { idOrName: string; parameters: URLSearchParams };
export declare const context: {
  callId: string;
  limits: ResultLimits;
  signal: AbortSignal;
  kinds: ArtifactKinds;
};
/** The application's answer when the pool is full, and the query it runs. */
