import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ResultLimits } from '../artifact/forge/model-lines.js';
import { sniffMediaType } from '../artifact/media.js';
import type { SpooledArtifact } from '../artifact/spooled-artifact.js';
import type { QueryPool } from '../shared/query-pool.js';
import { SpoolforgeError } from '../shared/spoolforge-error.js';
import type { ArtifactStore } from '../store/artifact-store.js';
import type { StoredArtifactRecord } from '../store/artifact-store-types.js';
import { sendHtml } from './http-responses.js';
import { renderMediaPage } from './viewer-media-page.js';
import { type PageFrame, renderArtifactPage, renderProblemPage } from './viewer-pages.js';
import {
  readViewerQuery,
  runViewerQuery,
  type ViewerOperation,
  type ViewerOutcome,
  viewerOperationsOf,
} from './viewer-query.js';

/** What a refused query is told to wait: about what a regex scan may take before it gives up. */
const retryAfterSeconds = 10;

/**
 * Answers an artifact's viewer route: the page with the query the parameters ask for and its
 * result (400 for bad input), 404 for an unknown or expired artifact, 429 with Retry-After when
 * `queries` has no turn left for a query that may scan (any but a read). HEAD gets the page's headers without running the query.
 *
 * @example
 * ```ts
 * await serveArtifactView(request, response, route, { store, queries, limits: {}, frame, signal });
 * ```
 */
export async function serveArtifactView(
  request: IncomingMessage,
  response: ServerResponse,
  route: { idOrName: string; parameters: URLSearchParams },
  context: {
    store: ArtifactStore;
    queries: QueryPool;
    limits: ResultLimits;
    frame: PageFrame;
    signal: AbortSignal;
  },
): Promise<void> {
  const { store, queries, limits, frame, signal } = context;
  const record = await store.info(route.idOrName);
  const notFound = () => {
    const problem = `No artifact "${route.idOrName}": it is unknown or has expired.`;
    sendHtml(request, response, 404, renderProblemPage(frame, problem), frame.nonce);
  };
  if (record === undefined) return notFound();
  const query = readViewerQuery(route.parameters);
  // HEAD gets the page's headers without running what may be a scan of gigabytes.
  const runs = request.method !== 'HEAD';
  // Every operation but a read may scan the whole artifact: they take a turn of the pool.
  const release = runs && query.operation !== 'read' ? await queries.acquire(signal) : () => {};
  const busy = () => {
    response.setHeader('Retry-After', String(retryAfterSeconds));
    const problem = 'The viewer is busy with other searches: try again in a few seconds.';
    sendHtml(request, response, 429, renderProblemPage(frame, problem), frame.nonce);
  };
  if (release === undefined) return busy();
  let outcome: ViewerOutcome = { text: '' };
  let mediaType: string | undefined;
  let offered: ViewerOperation[] = [];
  try {
    const artifact = await openArtifact(store, record, signal);
    if (artifact === undefined) return notFound();
    try {
      // Images and PDFs are shown as what they are, by their bytes, not as lines of binary.
      mediaType = sniffMediaType(await artifact.reader.read(0, 16, { signal }));
      offered = viewerOperationsOf(artifact, store.kinds);
      if (runs && mediaType === undefined)
        outcome = await runViewerQuery(artifact, query, {
          callId: record.id,
          limits,
          signal,
          kinds: store.kinds,
        });
    } finally {
      await artifact.close();
    }
  } catch (error) {
    // The regex threads are shared with the model-facing tools, which may hold all of them.
    if (SpoolforgeError.isInstance(error) && error.code === 'E_BUSY') return busy();
    throw error;
  } finally {
    release();
  }
  if (mediaType !== undefined) {
    const page = renderMediaPage(frame, record, mediaType);
    return sendHtml(request, response, 200, page, frame.nonce, { images: true });
  }
  const page = renderArtifactPage(frame, record, query, outcome, offered);
  sendHtml(request, response, 'text' in outcome ? 200 : 400, page, frame.nonce);
}

/** The artifact, or `undefined` when it expired or was deleted since `info`. */
async function openArtifact(
  store: ArtifactStore,
  record: StoredArtifactRecord,
  signal: AbortSignal,
): Promise<SpooledArtifact | undefined> {
  try {
    return await store.get(record.id, { signal });
  } catch (error) {
    if (SpoolforgeError.isInstance(error) && error.code === 'E_ARTIFACT_NOT_FOUND')
      return undefined;
    throw error;
  }
}
