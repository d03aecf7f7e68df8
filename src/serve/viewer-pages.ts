import { formatBytes } from '../shared/format-bytes.js';
import type { StoredArtifactRecord } from '../store/artifact-store-types.js';
import { html, SafeHtml } from './html-escape.js';
import { readPageLinks } from './read-page-links.js';
import {
  indexNav,
  layout,
  linksOf,
  type PageFrame,
  recordFacts,
  timestamp,
} from './viewer-layout.js';
import { artifactPath } from './viewer-links.js';
import type { ViewerOperation, ViewerOutcome, ViewerQuery } from './viewer-query.js';

export type { PageFrame } from './viewer-layout.js';

/**
 * The index page: one row per artifact (name, id, kind, size, lines, created, expires) linking
 * to its viewer and its raw body.
 *
 * @example
 * ```ts
 * sendHtml(request, response, 200, renderIndexPage(frame, await store.list()), frame.nonce);
 * ```
 */
export function renderIndexPage(frame: PageFrame, records: StoredArtifactRecord[]): string {
  const links = linksOf(frame);
  const rows = records.map(
    (record) => html`<tr>
<td><a href="${links.artifact(record.id, '/view')}">${record.name ?? record.id}</a></td>
<td><code>${record.id}</code></td>
<td>${record.kind}</td>
<td class="number">${formatBytes(record.byteLength)}</td>
<td class="number">${record.lineCount}</td>
<td>${timestamp(record.createdAt)}</td>
<td>${timestamp(record.expiresAt)}</td>
<td><a href="${links.artifact(record.id, '')}">raw</a></td>
</tr>`,
  );
  const table =
    records.length === 0
      ? html`<p class="empty">No artifacts stored.</p>`
      : html`<table>
<thead><tr><th>Name</th><th>Id</th><th>Kind</th><th>Size</th><th>Lines</th><th>Created</th><th>Expires</th><th></th></tr></thead>
<tbody>${rows}</tbody>
</table>`;
  const count = `${records.length} artifact${records.length === 1 ? '' : 's'}`;
  return layout(frame, html`${frame.title} <small>${count}</small>`, table);
}

/**
 * An artifact's page: its facts and metadata, the query form (works without JavaScript: a GET
 * form back to this page) and the result of the submitted query, or the problem with it.
 *
 * @example
 * ```ts
 * const page = renderArtifactPage(frame, record, query, await runViewerQuery(artifact, query, context));
 * ```
 */
export function renderArtifactPage(
  frame: PageFrame,
  record: StoredArtifactRecord,
  query: ViewerQuery,
  outcome: ViewerOutcome,
  offered: readonly ViewerOperation[] = ['read', 'grep'],
): string {
  const operations = offered.map(
    (operation) =>
      html`<option value="${operation}"${booleanAttribute(operation === query.operation, 'selected')}>${operation}</option>`,
  );
  const checkbox = (name: 'ignoreCase' | 'fixed' | 'invert', label: string) =>
    html`<label class="flag"><input type="checkbox" name="${name}" value="1"${booleanAttribute(query[name], 'checked')}> ${label}</label>`;
  const result =
    'text' in outcome
      ? html`<pre class="result">${outcome.text}</pre>`
      : html`<p class="problem" role="alert">${outcome.problem}</p>`;
  const links = linksOf(frame);
  const hidden = links
    .formFields(record.id)
    .map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`);
  const field = (label: string, name: 'path' | 'heading' | 'depth', attributes: SafeHtml) =>
    html`<label>${label} <input name="${name}" value="${query[name]}"${attributes}></label>`;
  const has = (...names: ViewerOperation[]) => names.some((name) => offered.includes(name));
  const json = has('shape', 'get', 'filter', 'slice')
    ? field(
        'Path',
        'path',
        new SafeHtml(' type="text" placeholder="$.items[*].id or @.status >= 500"'),
      )
    : html``;
  const markdown = has('outline', 'section')
    ? html`${field('Heading', 'heading', new SafeHtml(' type="text" placeholder="heading text or number"'))}
${field('Depth', 'depth', new SafeHtml(' type="number" min="1" max="6"'))}`
    : html``;
  const { previous, next } = readPageLinks(links, record.id, query, outcome);
  const pages =
    previous === undefined && next === undefined
      ? html``
      : html`<nav class="pages">${previous === undefined ? '' : html`<a href="${previous}" rel="prev">← previous page</a>`} ${next === undefined ? '' : html`<a href="${next}" rel="next">next page →</a>`}</nav>`;
  const body = html`${indexNav(frame, html`<a href="${links.artifact(record.id, '')}">Download / raw</a>`)}
${recordFacts(record)}
<form method="get" action="${artifactPath(frame.basePath, record.id)}/view">
${hidden}
<label>Operation <select name="op">${operations}</select></label>
<label>Start <input type="number" name="start" min="0" value="${query.start}"></label>
<label>End <input type="number" name="end" min="0" value="${query.end}"></label>
<label>Last <input type="number" name="last" min="1" value="${query.last}"></label>
<label>Pattern <input type="text" name="pattern" value="${query.pattern}" placeholder="regular expression"></label>
<label>Context <input type="number" name="context" min="0" max="100" value="${query.context}"></label>
${checkbox('ignoreCase', 'ignore case')}
${checkbox('fixed', 'fixed string')}
${checkbox('invert', 'invert')}
${json}
${markdown}
<button type="submit">Run</button>
</form>
${pages}
${result}
${pages}`;
  const subject = record.name ?? record.id;
  return layout(frame, html`${subject} <small>${frame.title}</small>`, body, subject);
}

/**
 * A page that only says what went wrong (an unknown artifact, a bad request).
 *
 * @example
 * ```ts
 * sendHtml(request, response, 404, renderProblemPage(frame, 'No artifact "build-7"'), frame.nonce);
 * ```
 */
export function renderProblemPage(frame: PageFrame, problem: string): string {
  return layout(
    frame,
    html`${frame.title}`,
    html`${indexNav(frame)}
<p class="problem" role="alert">${problem}</p>`,
  );
}

/** A boolean attribute (` selected`), present only when `condition` holds. */
function booleanAttribute(condition: boolean, name: 'selected' | 'checked'): SafeHtml | undefined {
  return condition ? new SafeHtml(` ${name}`) : undefined;
}
