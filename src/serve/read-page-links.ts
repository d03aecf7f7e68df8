import type { ViewerLinks } from './viewer-links.js';
import type { ViewerOutcome, ViewerQuery } from './viewer-query.js';

/** The head of a read's answer: `lines 11–20 of 500:` (1-based, inclusive). */
const readHead = /^lines (\d+)–(\d+) of (\d+):/;

/**
 * The viewer links to the pages before and after a read, each as long as the page shown (which
 * the result bounds may have cut short of the range asked for): `undefined` at either end of the
 * artifact, and none for another operation or a problem.
 *
 * @example
 * ```ts
 * const outcome = { text: 'lines 11–20 of 500:\n11:…' };
 * const { previous, next } = readPageLinks(links, record.id, query, outcome);
 * ```
 */
export function readPageLinks(
  links: ViewerLinks,
  id: string,
  query: ViewerQuery,
  outcome: ViewerOutcome,
): { previous?: string; next?: string } {
  if (query.operation !== 'read' || !('text' in outcome)) return {};
  const head = readHead.exec(outcome.text);
  if (head === null) return {};
  const [first, last, total] = head.slice(1).map(Number) as [number, number, number];
  const size = last - first + 1;
  const page = (start: number, end: number) => {
    const url = new URL(links.artifact(id, '/view'), 'http://viewer.invalid');
    url.searchParams.set('op', 'read');
    url.searchParams.set('start', String(start));
    url.searchParams.set('end', String(end));
    return url.pathname + url.search;
  };
  return {
    ...(first > 1 ? { previous: page(Math.max(1, first - size), first - 1) } : {}),
    ...(last < total ? { next: page(last + 1, Math.min(total, last + size)) } : {}),
  };
}
