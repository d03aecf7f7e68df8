import { SpoolforgeError } from '../../shared/spoolforge-error.js';
import type { UrlAllowList } from './url-allow-list.js';

/** As many redirects as fetch follows by default. */
const maxRedirects = 20;

/**
 * A `fetch` that follows a redirect only to a URL `urls` allows (`E_PATH_NOT_ALLOWED` naming it
 * otherwise): a server under an allowed prefix cannot send the reader elsewhere, to an internal
 * address or another host. `Authorization` is not sent on to another origin.
 *
 * @example
 * ```ts
 * const reader = new HttpSpoolReader(urls.check(url), { fetch: allowedRedirectsFetch(urls) });
 * ```
 */
export function allowedRedirectsFetch(
  urls: UrlAllowList,
  fetch: typeof globalThis.fetch = globalThis.fetch,
): typeof globalThis.fetch {
  return async (input, init = {}) => {
    let url = input instanceof Request ? input.url : String(input);
    let headers = new Headers(init.headers);
    for (let redirects = 0; ; redirects++) {
      const response = await fetch(url, { ...init, headers, redirect: 'manual' });
      const location = response.headers.get('location');
      if (response.status < 300 || response.status > 399 || location === null) return response;
      await response.body?.cancel();
      if (redirects === maxRedirects) {
        throw new SpoolforgeError('E_REMOTE_FAILED', `More than ${maxRedirects} redirects`);
      }
      const next = urls.check(new URL(location, url).href);
      if (new URL(next).origin !== new URL(url).origin) {
        headers = new Headers(headers);
        headers.delete('authorization');
      }
      url = next;
    }
  };
}
