import type { StoredArtifactRecord } from '../store/artifact-store-types.js';
import { html } from './html-escape.js';
import { indexNav, layout, linksOf, type PageFrame, recordFacts } from './viewer-layout.js';

/**
 * An image or PDF artifact's page: its facts, and the image itself from the artifact's body
 * route (an `<img>`, which runs no script whatever the bytes), or a link to open the document.
 * `mediaType` is what its bytes are (sniffed), not what it was stored as.
 *
 * @example
 * ```ts
 * sendHtml(request, response, 200, renderMediaPage(frame, record, 'image/png'), frame.nonce);
 * ```
 */
export function renderMediaPage(
  frame: PageFrame,
  record: StoredArtifactRecord,
  mediaType: string,
): string {
  const links = linksOf(frame);
  const body = links.artifact(record.id, '');
  const subject = record.name ?? record.id;
  const shown = mediaType.startsWith('image/')
    ? html`<img class="media" src="${body}" alt="${subject}">`
    : html`<p><a href="${body}">Open the ${mediaType} document</a></p>`;
  const page = html`${indexNav(frame, html`<a href="${body}">Download / raw</a>`)}
${recordFacts(record)}
<p class="facts">${mediaType}</p>
${shown}`;
  return layout(frame, html`${subject} <small>${frame.title}</small>`, page, subject);
}
