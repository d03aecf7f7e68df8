import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ResultLimits } from '../artifact/forge/model-lines.js';
import { QueryPool } from '../shared/query-pool.js';
import { SpoolforgeError } from '../shared/spoolforge-error.js';
import type { ArtifactStore } from '../store/artifact-store.js';
import type { StoredArtifactRecord } from '../store/artifact-store-types.js';
import { type ArtifactRoute, artifactRoute, normalizeBasePath } from './artifact-route.js';
import { sendHtml, sendJson, sendJsonError, styleNonce } from './http-responses.js';
import { prefersHtml } from './prefers-html.js';
import {
  type ArtifactAuthorizer,
  createRequestGate,
  type SignedLinksOptions,
  sendForbidden,
} from './request-gate.js';
import { serveArtifactBody } from './serve-artifact-body.js';
import { serveArtifactView } from './serve-artifact-view.js';
import { serveRemoteArtifactBody } from './serve-remote-artifact-body.js';
import { type PageFrame, renderIndexPage, renderProblemPage } from './viewer-pages.js';

/**
 * Options for {@link createArtifactHandler}.
 *
 * @example
 * ```ts
 * createArtifactHandler(store, { basePath: '/debug/artifacts', title: 'Agent outputs', limits: { maxResultBytes: 20_000 } });
 * ```
 */
export interface ArtifactHandlerOptions {
  /** Where the routes live. Default `/artifacts`. */
  basePath?: string;
  /** Bounds on the viewer's results, as for a model's tools. Default `defaultResultLimits`. */
  limits?: ResultLimits;
  /** The viewer's page title. Default `Artifacts`. */
  title?: string;
  /**
   * Told of unexpected failures (a store that cannot read its directory) when there is no
   * `next` to pass them to; the client gets a 500. Default: `console.error`.
   */
  onError?: (error: unknown) => void;
  /**
   * Viewer queries other than a read (greps, whose regex scans are worker threads; JSON and
   * Markdown queries) that run at once, across all requests. Default 2.
   */
  maxConcurrentQueries?: number;
  /** Viewer queries that may wait for a turn; past that they get 429 with Retry-After. Default 8. */
  maxQueuedQueries?: number;
  /**
   * Every request must carry a valid, unexpired signature for what it asks for (see
   * {@link createLinkSigner}), else 403: a key, keys (the first signs, all verify), or a signer.
   * A signature over `{base}/:idOrName` admits that artifact's body and viewer pages, one over
   * `{base}` the index (whose page then links to each artifact, signed to expire with it).
   */
  signedLinks?: SignedLinksOptions;
  /**
   * Called for every request under the base path, after the signature check: `false` answers
   * 403, a throw is a failure like any other (500, or `next(error)`), and so is an answer that
   * is not a boolean (`E_INVALID_ARGUMENT`).
   */
  authorize?: ArtifactAuthorizer;
  /**
   * How the body of an artifact in a remote store (S3) is served: `'proxy'` streams it through
   * this server with Range (ranged GETs pinned to the object's ETag), `'redirect'` answers 302
   * to a presigned URL valid for 5 minutes (the client then needs to reach the bucket). A local
   * store's files are always sent directly. Default `'proxy'`.
   */
  remoteBody?: 'proxy' | 'redirect';
}

/**
 * A `node:http` request listener that is also Express-style middleware: paths outside its base
 * path go to `next()` (or get a 404 without one), unexpected failures to `next(error)`.
 *
 * @example
 * ```ts
 * const handler: ArtifactHandler = createArtifactHandler(store);
 * http.createServer(handler).listen(8080);
 * ```
 */
export type ArtifactHandler = (
  request: IncomingMessage,
  response: ServerResponse,
  next?: (error?: unknown) => void,
) => void;

/**
 * Serves an {@link ArtifactStore} over HTTP, with a small viewer for people. Routes, under
 * `basePath` (default `/artifacts`), GET and HEAD only (other methods get 405):
 *
 * - `{base}` or `{base}/`: the records as JSON (`{ "artifacts": [...] }`, newest first), or the
 *   viewer's index page when `Accept` prefers `text/html`; `?format=json|html` decides outright.
 * - `{base}/:idOrName`: the body, with Range, a strong ETag (the SHA-256), conditional
 *   requests, the record's media type, `Content-Disposition: inline`.
 * - `{base}/:idOrName/view?op=read|grep&start=&end=&last=&pattern=&context=&ignoreCase=1&fixed=1&invert=1`:
 *   a page with a query form and the result, answered by the same tools and limits a model
 *   uses; bad input (an invalid regex, a negative count) is shown with HTTP 400. A read links to
 *   the pages before and after it. JSON adds `op=shape|get|filter|slice&path=` (slice with
 *   `start`, `end`), Markdown `op=outline&depth=` and `op=section&heading=`; an image is shown
 *   as an `<img>`, a PDF linked.
 *
 * Unknown and expired artifacts are 404, damaged ones 409 naming the artifact (a JSON error
 * body; a page on the viewer route). Viewer queries but reads share a bounded pool (see
 * {@link ArtifactHandlerOptions}); past its queue they get 429 with Retry-After. The id segment
 * is only looked up in the store, never made into a path. Work for a request is aborted when its
 * client goes away.
 *
 * It uses only Node's own request and response, so any framework can host it:
 * - `http.createServer(handler)`.
 * - Express: `app.use(handler)`, unmounted (Express strips a mount path from `req.url`; to
 *   mount under a path, pass the same path as `basePath` and `app.use(handler)` at the root).
 * - Fastify: `fastify.all('/artifacts', hand)` and `fastify.all('/artifacts/*', hand)` with
 *   `const hand = (request, reply) => { reply.hijack(); handler(request.raw, reply.raw); }`.
 * - Hono on `@hono/node-server`: for `/artifacts` and `/artifacts/*`, `app.all(path, (c) => {
 *   handler(c.env.incoming, c.env.outgoing); return RESPONSE_ALREADY_SENT; })` (the constant
 *   is from `@hono/node-server/utils/response`).
 *
 * Access, checked for every request under the base path before anything is looked up: with
 * `signedLinks`, a valid unexpired signature for the path (else 403); then `authorize`, when
 * given (`false`: 403; a throw: 500 or `next(error)`); then the method (405) and the route.
 * A 403 is the same whether the artifact exists: JSON, or a page when `Accept` prefers HTML.
 * Signed pages sign their own links (form, raw body, index) to expire with the request's link,
 * and link only to what it admits. Without either option the viewer has no authentication: put
 * it behind your own, or serve it on localhost only.
 *
 * @example
 * ```ts
 * import http from 'node:http';
 * import { ArtifactStore, createArtifactHandler } from 'spoolforge';
 *
 * const store = await ArtifactStore.open('/var/lib/agent/artifacts');
 * const handler = createArtifactHandler(store, { basePath: '/artifacts' });
 * http.createServer(handler).listen(8080, '127.0.0.1');
 * // curl -H 'Range: bytes=0-99' http://127.0.0.1:8080/artifacts/<id>
 * // open http://127.0.0.1:8080/artifacts/ in a browser
 * ```
 *
 * @example
 * ```ts
 * import http from 'node:http';
 * import { ArtifactStore, createArtifactHandler, createLinkSigner } from 'spoolforge';
 *
 * const store = await ArtifactStore.open('/var/lib/agent/artifacts');
 * const signer = createLinkSigner({ key: process.env.LINK_KEY ?? '' }); // 32+ bytes, server-side
 * http.createServer(createArtifactHandler(store, { signedLinks: { signer } })).listen(8080);
 * // A link to one artifact's viewer, for 15 minutes:
 * signer.sign('https://agent.example/artifacts/AbC/view', { scope: '/artifacts/AbC', expiresIn: 900_000 });
 * ```
 */
export function createArtifactHandler(
  store: ArtifactStore,
  options: ArtifactHandlerOptions = {},
): ArtifactHandler {
  const basePath = normalizeBasePath(options.basePath ?? '/artifacts');
  const title = options.title ?? 'Artifacts';
  const limits = options.limits ?? {};
  const reportError =
    options.onError ?? ((error: unknown) => console.error('spoolforge artifact handler:', error));
  const gate = createRequestGate({
    basePath,
    ...(options.signedLinks === undefined ? {} : { signedLinks: options.signedLinks }),
    ...(options.authorize === undefined ? {} : { authorize: options.authorize }),
  });
  const queries = new QueryPool({
    concurrency: options.maxConcurrentQueries ?? 2,
    queueLimit: options.maxQueuedQueries ?? 8,
    names: { concurrency: 'maxConcurrentQueries', queueLimit: 'maxQueuedQueries' },
  });

  async function handle(
    route: ArtifactRoute,
    request: IncomingMessage,
    response: ServerResponse,
    signal: AbortSignal,
  ): Promise<void> {
    // Before anything is looked up, so a refusal says nothing about what exists.
    const links = await gate(route, request);
    if (links === undefined)
      return sendForbidden(request, response, { title, basePath, nonce: styleNonce() });
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      sendJsonError(request, response, 405, 'Only GET and HEAD are allowed', {
        Allow: 'GET, HEAD',
      });
      return;
    }
    const frame: PageFrame = { title, basePath, nonce: styleNonce(), links };
    try {
      switch (route.kind) {
        case 'unknown':
          return sendJsonError(request, response, 404, 'Not found');
        case 'index':
          return await listArtifacts(route.parameters, request, response, frame);
        case 'body': {
          const record = await store.info(route.idOrName);
          if (record === undefined)
            return sendJsonError(request, response, 404, 'Artifact not found');
          if (!store.isLocal) {
            const redirect = options.remoteBody === 'redirect';
            return await serveRemoteArtifactBody(request, response, record, {
              store,
              redirect,
              signal,
            });
          }
          return await serveArtifactBody(request, response, record, store.dataFile(record.id));
        }
        case 'view':
          return await serveArtifactView(request, response, route, {
            store,
            queries,
            limits,
            frame,
            signal,
          });
      }
    } catch (error) {
      // A damaged artifact is the store's state, not a failure of this request: say which.
      const damaged = SpoolforgeError.isInstance(error) && error.code === 'E_ARTIFACT_DAMAGED';
      if (!damaged || response.headersSent) throw error;
      if (route.kind !== 'view') return sendJsonError(request, response, 409, error.message);
      return sendHtml(request, response, 409, renderProblemPage(frame, error.message), frame.nonce);
    }
  }

  async function listArtifacts(
    parameters: URLSearchParams,
    request: IncomingMessage,
    response: ServerResponse,
    frame: PageFrame,
  ): Promise<void> {
    const format = parameters.get('format');
    if (format !== null && format !== 'json' && format !== 'html') {
      return sendJsonError(request, response, 400, 'format must be json or html');
    }
    const records = await store.list();
    response.setHeader('Vary', 'Accept');
    if (format === 'html' || (format === null && prefersHtml(request.headers.accept))) {
      return sendHtml(request, response, 200, renderIndexPage(frame, records), frame.nonce);
    }
    sendJson(request, response, 200, { artifacts: records.map(listedRecord) });
  }

  return (request, response, next) => {
    const route = artifactRoute(request.url, basePath);
    if (route === undefined) {
      if (next) next();
      else sendJsonError(request, response, 404, 'Not found');
      return;
    }
    const controller = new AbortController();
    // 'close' also follows a finished response, when aborting has nothing left to stop.
    response.once('close', () => controller.abort());
    handle(route, request, response, controller.signal).catch((error: unknown) => {
      if (controller.signal.aborted) return; // the client is gone: there is no one to answer
      if (next) {
        next(error);
        return;
      }
      reportError(error);
      if (response.headersSent) response.destroy();
      else sendJsonError(request, response, 500, 'Internal error');
    });
  };
}

/** A record as the JSON listing shows it: every field present, `null` where there is no value. */
function listedRecord(record: StoredArtifactRecord) {
  return {
    id: record.id,
    name: record.name ?? null,
    kind: record.kind,
    mediaType: record.mediaType ?? null,
    byteLength: record.byteLength,
    lineCount: record.lineCount,
    createdAt: record.createdAt,
    expiresAt: record.expiresAt ?? null,
    metadata: record.metadata,
    sha256: record.sha256,
  };
}
