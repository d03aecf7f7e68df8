import { decodeUrlComponent, redactUrl } from './redact-url.js';

/** Anything from a scheme to the next space or quote: how messages quote a URL. */
const urlPattern = /\b[a-z][a-z\d+.-]*:\/\/[^\s"'<>`]+/gi;
/** Shorter query values (`?page=2`) are not secrets, and cutting them would garble messages. */
const shortestSecret = 4;

/**
 * `text` safe to show although it may quote `url`: every URL in it cut down by
 * {@link redactUrl}, and `url`'s password and query values (raw or decoded, of 4 characters or
 * more) replaced by `…` wherever else they appear.
 *
 * @example
 * ```ts
 * redactText('cannot fetch https://u:pw@host/log?sig=S3cr3t', url); // 'cannot fetch https://host/log'
 * ```
 */
export function redactText(text: string, url: string): string {
  let safe = text.replace(urlPattern, (found) => redactUrl(found));
  for (const secret of secretsOf(url)) safe = safe.replaceAll(secret, '…');
  return safe;
}

/**
 * A copy of `error` and its chain of causes with {@link redactText} applied to every message,
 * stack and string property: what spoolforge keeps as the `cause` of an error about `url`. The
 * copies are plain `Error`s keeping the original's `name` and properties such as `code`.
 *
 * @example
 * ```ts
 * throw new SpoolforgeError('E_REMOTE_FAILED', message, { cause: redactError(error, url) });
 * ```
 */
export function redactError(error: unknown, url: string): unknown {
  if (typeof error === 'string') return redactText(error, url);
  if (!(error instanceof Error)) return error;
  const cause = error.cause === undefined ? undefined : { cause: redactError(error.cause, url) };
  const copy = new Error(redactText(error.message, url), cause);
  for (const [key, value] of Object.entries(error)) {
    Object.assign(copy, { [key]: typeof value === 'string' ? redactText(value, url) : value });
  }
  copy.name = error.name;
  if (error.stack) copy.stack = redactText(error.stack, url);
  return copy;
}

/**
 * One of spoolforge's own errors about `url` with {@link redactText} applied to its message and
 * stack, in place: such messages quote what the server sent (a reason phrase, an ETag, a
 * Content-Range), which may echo the request, query and all.
 *
 * @example
 * ```ts
 * throw redactOwnError(error, client.given);
 * ```
 */
export function redactOwnError<T extends Error>(error: T, url: string): T {
  error.message = redactText(error.message, url);
  if (error.stack) error.stack = redactText(error.stack, url);
  return error;
}

function secretsOf(url: string): string[] {
  if (!URL.canParse(url)) return [];
  const { password, search } = new URL(url);
  const raw = [
    password,
    ...search
      .slice(1)
      .split('&')
      .map((pair) => pair.split('=')[1] ?? ''),
  ];
  const decoded = raw.map((value) => decodeUrlComponent(value.replaceAll('+', ' ')));
  const secrets = new Set([...raw, ...decoded].filter((value) => value.length >= shortestSecret));
  // Longest first: a secret that contains another is replaced whole.
  return [...secrets].sort((a, b) => b.length - a.length);
}
