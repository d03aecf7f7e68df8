import { formatBytes } from '../shared/format-bytes.js';
import type { StoredArtifactRecord } from '../store/artifact-store-types.js';
import { html, SafeHtml } from './html-escape.js';
import { toJsonText } from './http-responses.js';
import { artifactPath, plainViewerLinks, type ViewerLinks } from './viewer-links.js';
import { type ViewerOutcome, type ViewerQuery, viewerOperations } from './viewer-query.js';

/**
 * Where a page's links point and what its header says.
 */
export interface PageFrame {
  title: string;
  /** The handler's base path, without a trailing slash. */
  basePath: string;
  /** The nonce the page's CSP allows its `<style>` with. */
  nonce: string;
  /** How the page links to the routes (signed for a signed request). Default plain paths. */
  links?: ViewerLinks;
}

// Inserted as is (a <style> element's text is never entity-decoded): it must stay a constant.
const style = `
body { font: 15px/1.45 system-ui, sans-serif; margin: 1.5rem auto; max-width: 72rem; padding: 0 1rem; color: #1d232b; background: #fcfcfb; }
h1 { font-size: 1.35rem; margin: 0 0 1rem; } h1 small { color: #59636e; font-weight: normal; }
a { color: #0b57b3; } nav { margin-bottom: 1rem; font-size: .9rem; }
table { border-collapse: collapse; width: 100%; font-size: .9rem; }
th, td { text-align: left; padding: .35rem .6rem; border-bottom: 1px solid #dde1e5; vertical-align: top; }
th { background: #eef1f4; } td.number { text-align: right; font-variant-numeric: tabular-nums; }
code, pre, .facts { font-family: ui-monospace, 'DejaVu Sans Mono', Menlo, monospace; }
.facts { font-size: .85rem; color: #3b434c; margin: 0 0 1rem; word-break: break-all; }
form { display: flex; flex-wrap: wrap; gap: .5rem .9rem; align-items: end; padding: .8rem; background: #eef1f4; border-radius: 6px; }
label { display: flex; flex-direction: column; font-size: .8rem; color: #3b434c; }
label.flag { flex-direction: row; gap: .3rem; align-items: center; }
input[type=number] { width: 5rem; } input[name=pattern] { width: 14rem; }
input, select, button { font: inherit; font-size: .9rem; padding: .2rem .4rem; }
pre { background: #13171c; color: #e6edf3; padding: .9rem 1rem; border-radius: 6px; overflow-x: auto; font-size: .85rem; line-height: 1.4; }
.problem { background: #fdecea; color: #8a1c12; border: 1px solid #f0b4ad; padding: .7rem 1rem; border-radius: 6px; white-space: pre-wrap; }
.empty { color: #59636e; }
`;

/** A whole page; `subject` (an artifact's name) leads the tab's title when there is one. */
function layout(frame: PageFrame, heading: SafeHtml, body: SafeHtml, subject?: string): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${subject === undefined ? frame.title : `${subject} · ${frame.title}`}</title>
<style nonce="${frame.nonce}">${new SafeHtml(style)}</style>
</head>
<body>
<h1>${heading}</h1>
${body}
</body>
</html>
`.markup;
}

function timestamp(milliseconds: number | undefined): string {
  if (milliseconds === undefined) return 'never';
  return `${new Date(milliseconds).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

function linksOf(frame: PageFrame): ViewerLinks {
  return frame.links ?? plainViewerLinks(frame.basePath);
}

/** The way back to the index, when the request may open it. */
function indexNav(frame: PageFrame, more?: SafeHtml): SafeHtml {
  const index = linksOf(frame).index();
  if (index === undefined) return more === undefined ? html`` : html`<nav>${more}</nav>`;
  return html`<nav><a href="${index}">← all artifacts</a>${more === undefined ? '' : html` · ${more}`}</nav>`;
}

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
): string {
  const operations = Object.keys(viewerOperations).map(
    (operation) =>
      html`<option value="${operation}"${booleanAttribute(operation === query.operation, 'selected')}>${operation}</option>`,
  );
  const checkbox = (name: 'ignoreCase' | 'fixed' | 'invert', label: string) =>
    html`<label class="flag"><input type="checkbox" name="${name}" value="1"${booleanAttribute(query[name], 'checked')}> ${label}</label>`;
  const metadata =
    Object.keys(record.metadata).length === 0
      ? html``
      : html`<p class="facts">metadata ${toJsonText(record.metadata)}</p>`;
  const result =
    'text' in outcome
      ? html`<pre class="result">${outcome.text}</pre>`
      : html`<p class="problem" role="alert">${outcome.problem}</p>`;
  const links = linksOf(frame);
  const hidden = links
    .formFields(record.id)
    .map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`);
  const body = html`${indexNav(frame, html`<a href="${links.artifact(record.id, '')}">Download / raw</a>`)}
<p class="facts">id ${record.id} · ${record.kind} · ${record.mediaType ?? 'no media type'} · ${formatBytes(record.byteLength)} · ${record.lineCount} lines · created ${timestamp(record.createdAt)} · expires ${timestamp(record.expiresAt)} · sha256 ${record.sha256}</p>
${metadata}
<form method="get" action="${artifactPath(frame.basePath, record.id)}/view">
${hidden}
<label>Operation <select name="op">${operations}</select></label>
<label>Start <input type="number" name="start" min="1" value="${query.start}"></label>
<label>End <input type="number" name="end" min="1" value="${query.end}"></label>
<label>Last <input type="number" name="last" min="1" value="${query.last}"></label>
<label>Pattern <input type="text" name="pattern" value="${query.pattern}" placeholder="regular expression"></label>
<label>Context <input type="number" name="context" min="0" max="100" value="${query.context}"></label>
${checkbox('ignoreCase', 'ignore case')}
${checkbox('fixed', 'fixed string')}
${checkbox('invert', 'invert')}
<button type="submit">Run</button>
</form>
${result}`;
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
