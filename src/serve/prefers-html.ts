/**
 * Whether an `Accept` header ranks `text/html` above `application/json` (a browser's does;
 * `fetch`'s default, any type, and a missing header do not: JSON wins ties).
 *
 * @example
 * ```ts
 * prefersHtml('text/html,application/xhtml+xml;q=0.9'); // true
 * prefersHtml('application/json'); // false
 * ```
 */
export function prefersHtml(accept: string | undefined): boolean {
  if (accept === undefined) return false;
  const ranges = accept.split(',').map(parseRange);
  return quality(ranges, 'text', 'html') > quality(ranges, 'application', 'json');
}

interface MediaRange {
  type: string;
  subtype: string;
  q: number;
}

function parseRange(part: string): MediaRange {
  const [mediaType = '', ...parameters] = part.split(';').map((piece) => piece.trim());
  const [type = '', subtype = ''] = mediaType.toLowerCase().split('/');
  const qParameter = parameters.find((parameter) => /^q\s*=/i.test(parameter));
  const q = qParameter === undefined ? 1 : Number(qParameter.split('=')[1]);
  return { type, subtype, q: Number.isFinite(q) ? q : 0 };
}

/** The q of the most specific range that matches, as RFC 9110 §12.5.1 ranks them; 0 if none. */
function quality(ranges: MediaRange[], type: string, subtype: string): number {
  let best = { specificity: -1, q: 0 };
  for (const range of ranges) {
    const specificity =
      range.type === type && range.subtype === subtype
        ? 2
        : range.type === type && range.subtype === '*'
          ? 1
          : range.type === '*' && range.subtype === '*'
            ? 0
            : -1;
    if (specificity > best.specificity) best = { specificity, q: range.q };
  }
  return best.q;
}
