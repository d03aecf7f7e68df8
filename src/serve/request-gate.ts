import type { IncomingMessage, ServerResponse } from 'node:http';
import { SpoolforgeError } from '../shared/spoolforge-error.js';
import type { ArtifactRoute } from './artifact-route.js';
import { sendHtml, sendJsonError } from './http-responses.js';
import { createLinkSigner, type LinkSigner, type LinkSignerOptions } from './link-signer.js';
import { prefersHtml } from './prefers-html.js';
import {
  artifactPath,
  plainViewerLinks,
  signedViewerLinks,
  type ViewerLinks,
} from './viewer-links.js';
import { type PageFrame, renderProblemPage } from './viewer-pages.js';

/**
 * The `signedLinks` option of {@link createArtifactHandler}: a key (or keys, for rotation) to
 * make a {@link createLinkSigner} with, or the signer itself.
 *
 * @example
 * ```ts
 * const signedLinks: SignedLinksOptions = { keys: [process.env.LINK_KEY ?? '', process.env.OLD_LINK_KEY ?? ''] };
 * ```
 */
export type SignedLinksOptions = LinkSignerOptions | { signer: LinkSigner };

/**
 * What a request asks for, as the `authorize` hook of {@link createArtifactHandler} is told:
 * the route, and for an artifact's routes the id or name segment as requested (URL-decoded, not
 * yet looked up, so the answer cannot tell whether it exists).
 *
 * @example
 * ```ts
 * const target: ArtifactRequestTarget = { route: 'view', id: 'AbC' };
 * ```
 */
export interface ArtifactRequestTarget {
  route: ArtifactRoute['kind'];
  id?: string;
}

/**
 * Decides whether a request may go on: `true` serves it, `false` answers 403, a throw is an
 * unexpected failure (500, or `next(error)`), and so is any answer that is not a boolean.
 *
 * @example
 * ```ts
 * const authorize: ArtifactAuthorizer = (request) => request.headers['x-team'] === 'build';
 * ```
 */
export type ArtifactAuthorizer = (
  request: IncomingMessage,
  target: ArtifactRequestTarget,
) => boolean | Promise<boolean>;

/**
 * Checks a request before anything is looked up: its signature first (when `signedLinks` is
 * set), then `authorize`. Resolves the links its pages may carry, or `undefined` when it is
 * refused. A signature over the index (`{base}`) admits the index; one over an artifact
 * (`{base}/:idOrName`) admits that artifact's body and viewer; any other path under the base
 * is admitted by a signature over itself.
 *
 * @example
 * ```ts
 * const gate = createRequestGate({ basePath: '/artifacts', signedLinks: { key: process.env.LINK_KEY ?? '' } });
 * const links = await gate(artifactRoute(request.url, '/artifacts') ?? { kind: 'unknown' }, request);
 * ```
 */
export function createRequestGate(options: {
  basePath: string;
  signedLinks?: SignedLinksOptions;
  authorize?: ArtifactAuthorizer;
}): (route: ArtifactRoute, request: IncomingMessage) => Promise<ViewerLinks | undefined> {
  const { basePath, signedLinks, authorize } = options;
  const signer = signerOf(signedLinks);
  const plain = plainViewerLinks(basePath);
  return async (route, request) => {
    const id = route.kind === 'body' || route.kind === 'view' ? route.idOrName : undefined;
    let links = plain;
    if (signer !== undefined) {
      const scope =
        route.kind === 'index'
          ? basePath || '/'
          : id === undefined
            ? undefined
            : artifactPath(basePath, id);
      const verdict = signer.verify(request.url ?? '/', scope === undefined ? {} : { scope });
      if (!verdict.valid) return undefined;
      links = signedViewerLinks({
        signer,
        basePath,
        expiresAt: verdict.expiresAt,
        index: route.kind === 'index',
      });
    }
    if (authorize) {
      const allowed = await authorize(request, {
        route: route.kind,
        ...(id === undefined ? {} : { id }),
      });
      // Only a boolean: a truthy `'false'` or a forgotten `return` must not decide either way.
      if (typeof allowed !== 'boolean') {
        throw new SpoolforgeError(
          'E_INVALID_ARGUMENT',
          `authorize must answer true or false, not ${typeof allowed === 'string' ? JSON.stringify(allowed) : String(allowed)}`,
        );
      }
      if (!allowed) return undefined;
    }
    return links;
  };
}

/** The signer `signedLinks` names or makes; one that cannot sign is refused, never skipped. */
function signerOf(signedLinks: SignedLinksOptions | undefined): LinkSigner | undefined {
  if (signedLinks === undefined) return undefined;
  if (!('signer' in signedLinks)) return createLinkSigner(signedLinks);
  const { signer } = signedLinks as { signer: Partial<LinkSigner> | null | undefined };
  if (typeof signer?.sign !== 'function' || typeof signer.verify !== 'function') {
    throw new SpoolforgeError(
      'E_INVALID_ARGUMENT',
      'signedLinks.signer must be a LinkSigner (createLinkSigner): without one every request would be served unsigned',
    );
  }
  return signer as LinkSigner;
}

/**
 * The 403 of a refused request, the same whatever the path names: a problem page when `Accept`
 * prefers HTML, else the JSON error. The page links nowhere.
 *
 * @example
 * ```ts
 * sendForbidden(request, response, frame);
 * ```
 */
export function sendForbidden(
  request: IncomingMessage,
  response: ServerResponse,
  frame: PageFrame,
): void {
  const message =
    'Forbidden: the link is unsigned, altered or expired, or the request is not authorised';
  response.setHeader('Vary', 'Accept');
  if (!prefersHtml(request.headers.accept)) {
    sendJsonError(request, response, 403, message);
    return;
  }
  const page = renderProblemPage(
    { ...frame, links: { ...plainViewerLinks(frame.basePath), index: () => undefined } },
    message,
  );
  sendHtml(request, response, 403, page, frame.nonce);
}
