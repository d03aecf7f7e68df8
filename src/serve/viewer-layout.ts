import { formatBytes } from '../shared/format-bytes.js';
import type { StoredArtifactRecord } from '../store/artifact-store-types.js';
import { html, SafeHtml } from './html-escape.js';
import { toJsonText } from './http-responses.js';
import { plainViewerLinks, type ViewerLinks } from './viewer-links.js';

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
img.media { display: block; max-width: 100%; height: auto; border: 1px solid #dde1e5; background: #fff; }
`;

/**
 * A whole page; `subject` (an artifact's name) leads the tab's title when there is one.
 */
export function layout(
  frame: PageFrame,
  heading: SafeHtml,
  body: SafeHtml,
  subject?: string,
): string {
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

export function timestamp(milliseconds: number | undefined): string {
  if (milliseconds === undefined) return 'never';
  return `${new Date(milliseconds).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

export function linksOf(frame: PageFrame): ViewerLinks {
  return frame.links ?? plainViewerLinks(frame.basePath);
}

/**
 * The way back to the index, when the request may open it.
 */
export function indexNav(frame: PageFrame, more?: SafeHtml): SafeHtml {
  const index = linksOf(frame).index();
  if (index === undefined) return more === undefined ? html`` : html`<nav>${more}</nav>`;
  return html`<nav><a href="${index}">← all artifacts</a>${more === undefined ? '' : html` · ${more}`}</nav>`;
}

/**
 * An artifact's facts line (id, kind, media type, size, lines, times, checksum) and its metadata.
 */
export function recordFacts(record: StoredArtifactRecord): SafeHtml {
  const metadata =
    Object.keys(record.metadata).length === 0
      ? html``
      : html`<p class="facts">metadata ${toJsonText(record.metadata)}</p>`;
  return html`<p class="facts">id ${record.id} · ${record.kind} · ${record.mediaType ?? 'no media type'} · ${formatBytes(record.byteLength)} · ${record.lineCount} lines · created ${timestamp(record.createdAt)} · expires ${timestamp(record.expiresAt)} · sha256 ${record.sha256}</p>
${metadata}`;
}
