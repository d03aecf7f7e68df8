import { createHmac, timingSafeEqual } from 'node:crypto';
import { SpoolforgeError } from '../shared/spoolforge-error.js';

/**
 * Options for {@link createLinkSigner}: one `key`, or `keys` for rotation (the first signs, every
 * one verifies). A key is a string (its UTF-8 bytes) or bytes, at least 32 bytes long.
 *
 * @example
 * ```ts
 * const options: LinkSignerOptions = { keys: [process.env.LINK_KEY ?? '', process.env.OLD_LINK_KEY ?? ''], ttl: 600_000 };
 * ```
 */
export interface LinkSignerOptions {
  key?: string | Uint8Array;
  /** Keys that verify, the first of which signs: put a new key first and keep the old one a while. */
  keys?: readonly (string | Uint8Array)[];
  /** How long a link lives when `sign` is told nothing else, in milliseconds. Default one hour. */
  ttl?: number;
  /** The clock, in epoch milliseconds. Default `Date.now`. */
  now?: () => number;
}

/**
 * When a signed link stops working, and which path it is for.
 *
 * @example
 * ```ts
 * signer.sign('/artifacts/AbC/view', { scope: '/artifacts/AbC', expiresIn: 15 * 60_000 });
 * ```
 */
export interface LinkSignOptions {
  /** Milliseconds from now. Default the signer's `ttl`. */
  expiresIn?: number;
  /** A `Date` or epoch milliseconds, instead of `expiresIn`. */
  expiresAt?: Date | number;
  /**
   * The path the signature is over, when it is not the link's own: a link to an artifact's viewer
   * (`/artifacts/:id/view`) signed over the artifact (`/artifacts/:id`) admits all its routes.
   */
  scope?: string;
}

/**
 * What {@link LinkSigner.verify} found: a valid link's scope and expiry (epoch milliseconds), or
 * why it is refused: no signature, a malformed one, a signature that does not match (a changed
 * path, expiry or signature, another key), or an expired link.
 *
 * @example
 * ```ts
 * const verdict: LinkVerification = signer.verify(url);
 * if (!verdict.valid) console.warn(`refused link: ${verdict.reason}`);
 * ```
 */
export type LinkVerification =
  | { valid: true; scope: string; expiresAt: number }
  | { valid: false; reason: 'missing' | 'malformed' | 'invalid' | 'expired' };

/**
 * Signs and verifies expiring links; made by {@link createLinkSigner}.
 *
 * @example
 * ```ts
 * const signer: LinkSigner = createLinkSigner({ key: process.env.LINK_KEY ?? '' });
 * ```
 */
export interface LinkSigner {
  /**
   * `pathOrUrl` (a path, or an absolute URL) with `expires` (epoch seconds) and `signature`
   * query parameters set; other parameters are kept and not signed.
   */
  sign(pathOrUrl: string | URL, options?: LinkSignOptions): string;
  /** Whether `pathOrUrl` carries a signature over `scope` (default its own path) still valid now. */
  verify(pathOrUrl: string | URL, options?: { scope?: string }): LinkVerification;
}

/** Distinguishes this signature's input from any other use of the same key. */
const domain = 'spoolforge-link-v1';
const minimumKeyBytes = 32;
const defaultTtl = 60 * 60_000;
/** The last time a `Date` holds, in epoch milliseconds. */
const maxTime = 8.64e15;
/** Epoch seconds as `sign` writes them: no sign, no leading zero, no fraction. */
const expiresPattern = /^[1-9]\d{0,12}$/;
/** An HMAC-SHA256 in unpadded base64url. */
const signaturePattern = /^[A-Za-z0-9_-]{43}$/;
/** A `.` or `..` path segment, plain or percent-encoded; a backslash separates as a slash does. */
const dotSegmentPattern = /(?:^|[/\\])(?:\.|%2e){1,2}(?=[/\\]|$)/i;

/**
 * Makes a {@link LinkSigner}: a link's `signature` is an HMAC-SHA256 (base64url) over its path
 * and its `expires`, so a link cannot be moved to another path nor kept past its expiry, and
 * only who holds a key can make one. Query parameters other than those two are not signed: a
 * viewer link's grep pattern may change. Paths are compared canonically (each segment decoded and
 * encoded again, no trailing slash, dot segments resolved), so `/artifacts/` and `/artifacts`
 * are one path, and `a%2Fb` stays one segment. Verification is constant-time, against each key.
 * A key shorter than 32 bytes, `key` with `keys`, an empty `keys`, or a `ttl` that is not a
 * positive number is `E_INVALID_ARGUMENT`; so is signing a path with a `.` or `..` segment
 * (plain or `%2e`), which the URL would resolve to another path.
 *
 * The path is the one the server sees: behind a proxy that rewrites paths, sign what reaches
 * {@link createArtifactHandler}. Keep keys on the server: whoever has one can sign any path.
 *
 * @example
 * ```ts
 * import { createLinkSigner } from 'spoolforge';
 *
 * const signer = createLinkSigner({ key: process.env.LINK_KEY ?? '' });
 * const link = signer.sign('https://agent.example/artifacts/AbC', { expiresIn: 15 * 60_000 });
 * // https://agent.example/artifacts/AbC?expires=1767225600&signature=…
 * signer.verify(link).valid; // true, for 15 minutes
 * ```
 */
export function createLinkSigner(options: LinkSignerOptions): LinkSigner {
  const keys = signingKeys(options);
  const ttl = options.ttl ?? defaultTtl;
  if (!(ttl > 0) || !Number.isFinite(ttl)) {
    throw new SpoolforgeError(
      'E_INVALID_ARGUMENT',
      'ttl must be a positive number of milliseconds',
    );
  }
  const now = options.now ?? Date.now;
  const mac = (key: Buffer, scope: string, expires: string) =>
    createHmac('sha256', key).update(`${domain}\n${scope}\n${expires}`).digest();

  return {
    sign(pathOrUrl, signOptions = {}) {
      const { url, relative } = parseLink(refuseDotSegments(pathOrUrl));
      const expires = String(Math.ceil(expiryOf(signOptions, now(), ttl) / 1000));
      const scope = canonicalPath(
        parseLink(refuseDotSegments(signOptions.scope ?? url)).url.pathname,
      );
      url.searchParams.set('expires', expires);
      url.searchParams.set(
        'signature',
        mac(keys[0] as Buffer, scope, expires).toString('base64url'),
      );
      return relative ? `${url.pathname}${url.search}${url.hash}` : url.href;
    },
    verify(pathOrUrl, verifyOptions = {}) {
      const { url } = parseLink(pathOrUrl);
      const expiresValues = url.searchParams.getAll('expires');
      const signatures = url.searchParams.getAll('signature');
      if (expiresValues.length === 0 && signatures.length === 0) return refused('missing');
      const [expires = ''] = expiresValues;
      const [signature = ''] = signatures;
      const given = Buffer.from(signature, 'base64url');
      if (
        expiresValues.length !== 1 ||
        signatures.length !== 1 ||
        !expiresPattern.test(expires) ||
        !signaturePattern.test(signature) ||
        // Base64url's last character has bits the bytes ignore: only the canonical text is one.
        given.toString('base64url') !== signature
      ) {
        return refused('malformed');
      }
      const scope = canonicalPath(parseLink(verifyOptions.scope ?? url).url.pathname);
      let matches = false;
      for (const key of keys) matches = timingSafeEqual(mac(key, scope, expires), given) || matches;
      if (!matches) return refused('invalid');
      const expiresAt = Number(expires) * 1000;
      return now() < expiresAt ? { valid: true, scope, expiresAt } : refused('expired');
    },
  };
}

function refused(reason: 'missing' | 'malformed' | 'invalid' | 'expired'): LinkVerification {
  return { valid: false, reason };
}

function signingKeys(options: LinkSignerOptions): Buffer[] {
  if (options.key !== undefined && options.keys !== undefined) {
    throw new SpoolforgeError('E_INVALID_ARGUMENT', 'Give key or keys, not both');
  }
  const keys = options.keys ?? (options.key === undefined ? [] : [options.key]);
  if (keys.length === 0) {
    throw new SpoolforgeError('E_INVALID_ARGUMENT', 'A link signer needs a key');
  }
  return keys.map((key, index) => {
    // A copy: the caller's buffer may be reused or zeroed later.
    const bytes = typeof key === 'string' ? Buffer.from(key, 'utf8') : Buffer.from(key);
    if (bytes.length < minimumKeyBytes) {
      throw new SpoolforgeError(
        'E_INVALID_ARGUMENT',
        `Link signing key ${index + 1} has ${bytes.length} bytes: it needs at least ${minimumKeyBytes} (e.g. randomBytes(32))`,
      );
    }
    return bytes;
  });
}

/** The expiry in epoch milliseconds that `options` ask for, at most the last time a Date holds. */
function expiryOf(options: LinkSignOptions, now: number, ttl: number): number {
  if (options.expiresIn !== undefined && options.expiresAt !== undefined) {
    throw new SpoolforgeError('E_INVALID_ARGUMENT', 'Give expiresIn or expiresAt, not both');
  }
  const expiresIn = options.expiresIn ?? ttl;
  if (options.expiresAt === undefined && !(expiresIn > 0)) {
    throw new SpoolforgeError(
      'E_INVALID_ARGUMENT',
      'expiresIn must be a positive number of milliseconds',
    );
  }
  // A past expiresAt is allowed (the link is born expired): a page's links carry the expiry of
  // the request that was valid a moment ago.
  const at = options.expiresAt === undefined ? now + expiresIn : Number(options.expiresAt);
  if (!(at > 0 && at <= maxTime)) {
    throw new SpoolforgeError(
      'E_INVALID_ARGUMENT',
      `A link must expire at a valid time, by ${new Date(maxTime).toISOString()} at the latest`,
    );
  }
  return at;
}

/**
 * `link`, unless its path has a dot segment: the URL resolves `/artifacts/.` (an artifact named
 * `.`) to `/artifacts/`, so signing it would sign another path than the caller wrote, here the
 * index. A URL object has resolved its own already.
 */
function refuseDotSegments(link: string | URL): string | URL {
  const path = typeof link === 'string' ? (link.split(/[?#]/, 1)[0] ?? '') : '';
  if (dotSegmentPattern.test(path)) {
    throw new SpoolforgeError(
      'E_INVALID_ARGUMENT',
      `A signed link's path cannot have a . or .. segment, which would make it another path: ${JSON.stringify(link)}`,
    );
  }
  return link;
}

/** A link as a URL, and whether it was a path (so `sign` gives a path back). */
function parseLink(pathOrUrl: string | URL): { url: URL; relative: boolean } {
  if (pathOrUrl instanceof URL) return { url: new URL(pathOrUrl.href), relative: false };
  // Only absolute URLs and absolute paths: `//host/x` stays a path, as the handler routes it.
  if (pathOrUrl.startsWith('/')) {
    return { url: new URL(`http://localhost${pathOrUrl}`), relative: true };
  }
  try {
    return { url: new URL(pathOrUrl), relative: false };
  } catch (error) {
    throw new SpoolforgeError(
      'E_INVALID_ARGUMENT',
      `A signed link needs an absolute URL or a path starting with /: ${JSON.stringify(pathOrUrl)}`,
      { cause: error },
    );
  }
}

/** A path as signatures cover it: each segment decoded and encoded again, no trailing slash. */
function canonicalPath(pathname: string): string {
  const path = pathname
    .split('/')
    .map((segment) => {
      try {
        return encodeURIComponent(decodeURIComponent(segment));
      } catch {
        return segment; // not percent-decodable: compared as it is
      }
    })
    .join('/')
    .replace(/\/+$/, '');
  return path === '' ? '/' : path;
}
