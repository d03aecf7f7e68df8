/**
 * The part of a URL that is safe to show: presigned URLs carry credentials in the query string,
 * and URLs may carry a user and password.
 *
 * @example
 * ```ts
 * redactUrl('https://bucket.s3.amazonaws.com/build.log?X-Amz-Signature=abc'); // 'https://bucket.s3.amazonaws.com/build.log'
 * ```
 */
export function redactUrl(url: string | URL): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return String(url)
      .replace(/[?#].*$/s, '')
      .replace(/^([a-z][a-z\d+.-]*:\/\/)[^/]*@/i, '$1');
  }
}

/**
 * A percent-encoded URL component decoded, or as it is when it is not valid percent-encoding.
 *
 * @example
 * ```ts
 * decodeUrlComponent('p%40ss'); // 'p@ss'
 * ```
 */
export function decodeUrlComponent(component: string): string {
  try {
    return decodeURIComponent(component);
  } catch {
    return component;
  }
}
