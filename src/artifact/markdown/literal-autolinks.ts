/**
 * A GFM literal autolink found in text: as written, and the URL it stands for.
 */
export interface LiteralAutolink {
  text: string;
  url: string;
}

/** `www.` or `http(s)://` after the start, whitespace or `*_~(`, up to whitespace or `<`. */
const urlLiteral = /(?<![^\s*_~(])(?:https?:\/\/|www\.)[^\s<]*/gi;
/** An email address not inside a longer word; its domain has a dot and ends in a letter or digit. */
const emailLiteral =
  /(?<![\w.+\-@])[\w.+-]+@[a-zA-Z0-9_-]+(?:\.[a-zA-Z0-9_-]+)+(?![\w@-]|\.[a-zA-Z0-9_-])/g;
const trailingPunctuation = /[?!.,:*_~]$/;
const trailingEntity = /&[a-zA-Z0-9]+;$/;

/**
 * The literal autolinks of GFM in a run of text (one line, outside links): `www.` links (URL
 * `http://…`), `http://` and `https://` links, and email addresses (`mailto:…`). Trailing
 * punctuation, an unbalanced `)` and a trailing entity-like `&name;` are not part of a link,
 * and no underscore may be in the last two segments of its domain.
 *
 * @example
 * ```ts
 * literalAutolinks('see www.example.com.'); // [{ text: 'www.example.com', url: 'http://www.example.com' }]
 * ```
 */
export function literalAutolinks(text: string): LiteralAutolink[] {
  const found: (LiteralAutolink & { start: number; end: number })[] = [];
  if (/www\.|https?:\/\//i.test(text)) {
    for (const match of text.matchAll(urlLiteral)) {
      const literal = trimmed(match[0]);
      if (!/^(?:https?:\/\/|www\.)/i.test(literal)) continue;
      const www = /^www\./i.test(literal);
      const domain = literal.replace(/^(?:https?:\/\/)/i, '').split(/[/?#]/)[0] ?? '';
      if (!validDomain(domain, www)) continue;
      const url = www ? `http://${literal}` : literal;
      found.push({ text: literal, url, start: match.index, end: match.index + literal.length });
    }
  }
  if (text.includes('@')) {
    const inUrl = found.slice();
    for (const match of text.matchAll(emailLiteral)) {
      const [literal] = match;
      const start = match.index;
      if (
        /[-_]$/.test(literal) ||
        inUrl.some((url) => start < url.end && url.start < start + literal.length)
      )
        continue;
      found.push({ text: literal, url: `mailto:${literal}`, start, end: start + literal.length });
    }
    found.sort((left, right) => left.start - right.start);
  }
  return found.map(({ text: literal, url }) => ({ text: literal, url }));
}

/** A link without what GFM leaves after it. */
function trimmed(match: string): string {
  let literal = match;
  for (;;) {
    if (trailingPunctuation.test(literal)) literal = literal.slice(0, -1);
    else if (literal.endsWith(')') && count(literal, '(') < count(literal, ')'))
      literal = literal.slice(0, -1);
    else if (literal.endsWith(';') && trailingEntity.test(literal))
      literal = literal.replace(trailingEntity, '');
    else return literal;
  }
}

function validDomain(domain: string, www: boolean): boolean {
  if (domain === '' || (www && domain.length <= 4)) return false;
  const segments = domain.split('.');
  return !segments.slice(-2).some((segment) => segment.includes('_'));
}

function count(text: string, char: string): number {
  let total = 0;
  for (const each of text) if (each === char) total++;
  return total;
}
