import { decodeUrlComponent, redactUrl } from './redact-url.js';

/** Anything from a scheme to the next space or quote: how messages quote a URL. */
const urlPattern = /\b[a-z][a-z\d+.-]*:\/\/[^\s"'<>`]+/gi;
/** Shorter values (`?page=2`, `theme=dark`) are not secrets, and cutting them would garble messages. */
const shortestSecret = 4;
/** An auth scheme and its credentials (RFC 9110 §11.4): `Bearer …`, `Basic …`. */
const schemePattern = /^([\w!#$%&'*+.^`|~-]+) +(\S.*)$/s;

/** What errors about one remote object may show, and what they must not. */
export interface Redaction {
  /** The URL as errors name it (no user, password or query string): shown whole. */
  label: string;
  /** Credentials from the URL and the headers sent, longest first (see {@link secretsOf}). */
  secrets: readonly string[];
}

/**
 * Every credential requests to `urls` with `headers` carry, in the forms a server may echo:
 * each URL's user, password and query values; the value of every header (a caller's headers are
 * where tokens, cookies and API keys go, and none other is sent with every request), the
 * credentials after its auth scheme, a Basic credential decoded (`user:password`, each half), and
 * the values of its `name=value` pairs (cookies, auth parameters). Each raw, percent-decoded and
 * percent-encoded; only those of 4 characters or more. Longest first, so a secret that contains
 * another is replaced whole.
 *
 * @example
 * ```ts
 * secretsOf(['https://u:pw12@host/a.log'], new Map([['authorization', 'Bearer t0k3n']]));
 * // ['Bearer%20t0k3n', 'Bearer t0k3n', 't0k3n', 'pw12']
 * ```
 */
export function secretsOf(urls: readonly string[], headers: ReadonlyMap<string, string>): string[] {
  const found: string[] = [];
  for (const url of urls.filter((url) => URL.canParse(url))) {
    const { username, password, search } = new URL(url);
    const values = search
      .slice(1)
      .split('&')
      .map((pair) => pair.split('=')[1] ?? '');
    found.push(username, password, ...values);
  }
  for (const [, value] of headers) found.push(...headerSecrets(value));
  const forms = found.flatMap((value) => [
    value,
    decodeUrlComponent(value),
    decodeUrlComponent(value.replaceAll('+', ' ')),
    encodeURIComponent(value),
  ]);
  const secrets = new Set(forms.filter((value) => value.length >= shortestSecret));
  return [...secrets].sort((a, b) => b.length - a.length);
}

/**
 * `text` safe to show although it may quote the request: every URL in it cut down by
 * {@link redactUrl}, and each of `redaction.secrets` replaced by `…` wherever else it appears
 * (the label stays whole).
 *
 * @example
 * ```ts
 * redactText('403 Denied for Bearer t0k3n at https://host/log?sig=S3cr3t', client);
 * // '403 Denied for … at https://host/log'
 * ```
 */
export function redactText(text: string, redaction: Redaction): string {
  const { label, secrets } = redaction;
  const cut = text.replace(urlPattern, (found) => redactUrl(found));
  const scrub = (part: string) =>
    secrets.reduce((safe, secret) => safe.replaceAll(secret, '…'), part);
  return label ? cut.split(label).map(scrub).join(label) : scrub(cut);
}

/**
 * A copy of `error` and its chain of causes with {@link redactText} applied to every message,
 * stack and string property: what spoolforge keeps as the `cause` of an error about a remote
 * object. The copies are plain `Error`s keeping the original's `name` and properties such as
 * `code`; properties holding other objects (a request, its headers) are left out.
 *
 * @example
 * ```ts
 * throw new SpoolforgeError('E_REMOTE_FAILED', message, { cause: redactError(error, client) });
 * ```
 */
export function redactError(error: unknown, redaction: Redaction): unknown {
  if (typeof error === 'string') return redactText(error, redaction);
  if (!(error instanceof Error)) return error;
  const cause =
    error.cause === undefined ? undefined : { cause: redactError(error.cause, redaction) };
  const copy = new Error(redactText(error.message, redaction), cause);
  for (const [key, value] of Object.entries(error)) {
    const safe = redactValue(value, redaction);
    if (safe !== undefined) Object.assign(copy, { [key]: safe });
  }
  copy.name = error.name;
  if (error.stack) copy.stack = redactText(error.stack, redaction);
  return copy;
}

/**
 * One of spoolforge's own errors with {@link redactText} applied to its message and stack, in
 * place, and its cause replaced by a {@link redactError} copy: such messages quote what the
 * server sent (a reason phrase, an ETag, a Content-Range), which may echo the request, query,
 * Authorization header and all.
 *
 * @example
 * ```ts
 * throw redactOwnError(error, client);
 * ```
 */
export function redactOwnError<T extends Error>(error: T, redaction: Redaction): T {
  error.message = redactText(error.message, redaction);
  if (error.stack) error.stack = redactText(error.stack, redaction);
  if (error.cause !== undefined) {
    Object.defineProperty(error, 'cause', { value: redactError(error.cause, redaction) });
  }
  return error;
}

/** A property of an error made safe: strings and errors redacted, other objects left out. */
function redactValue(value: unknown, redaction: Redaction): unknown {
  if (typeof value === 'string') return redactText(value, redaction);
  if (value instanceof Error) return redactError(value, redaction);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, redaction));
  return typeof value === 'object' || typeof value === 'function' ? undefined : value;
}

/** The secrets one header value carries; see {@link secretsOf}. */
function headerSecrets(value: string): string[] {
  const found = [value];
  const [, scheme = '', credentials] = schemePattern.exec(value) ?? [];
  if (credentials) {
    found.push(credentials);
    const decoded = Buffer.from(credentials, 'base64').toString();
    // Only a credential that really is base64 of text: anything else decodes to noise.
    if (
      /^basic$/i.test(scheme) &&
      /^[A-Za-z\d+/]+=*$/.test(credentials) &&
      !/[^\x20-\x7e\u00a0-\uffef]/u.test(decoded)
    ) {
      const colon = decoded.indexOf(':');
      found.push(decoded, decoded.slice(0, Math.max(0, colon)), decoded.slice(colon + 1));
    }
  }
  for (const pair of value.split(/[;,]/)) {
    const equals = pair.indexOf('=');
    if (equals > 0)
      found.push(
        pair
          .slice(equals + 1)
          .trim()
          .replace(/^"(.*)"$/s, '$1'),
      );
  }
  return found;
}
