const entities: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * Text made safe for HTML element content and quoted attribute values.
 *
 * @example
 * ```ts
 * escapeHtml('<script>alert("x")</script>'); // '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;'
 * ```
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => entities[character] ?? character);
}

/**
 * Markup that is already safe: what {@link html} returns, and the only value it inserts unescaped.
 *
 * @example
 * ```ts
 * const row: SafeHtml = html`<td>${name}</td>`;
 * html`<tr>${row}</tr>`; // the row is kept, `name` was escaped once
 * ```
 */
export class SafeHtml {
  constructor(readonly markup: string) {}

  toString(): string {
    return this.markup;
  }
}

/**
 * A template tag that escapes every interpolated value unless it is {@link SafeHtml}, so a page
 * cannot forget to escape a name, a line or an error message. Arrays are joined; `undefined`,
 * `null` and `false` render as nothing.
 *
 * @example
 * ```ts
 * html`<li>${record.name}</li>`.markup; // '<li>&lt;script&gt;</li>' for the name '<script>'
 * ```
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let markup = strings[0] ?? '';
  values.forEach((value, index) => {
    markup += render(value) + (strings[index + 1] ?? '');
  });
  return new SafeHtml(markup);
}

function render(value: unknown): string {
  if (value instanceof SafeHtml) return value.markup;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === undefined || value === null || value === false) return '';
  return escapeHtml(String(value));
}
