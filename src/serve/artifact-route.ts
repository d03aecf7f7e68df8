/**
 * What a request under the handler's base path asks for. `idOrName` is URL-decoded and only
 * ever handed to the store to look up, never made into a path.
 */
export type ArtifactRoute =
  | { kind: 'index'; parameters: URLSearchParams }
  | { kind: 'body'; idOrName: string }
  | { kind: 'view'; idOrName: string; parameters: URLSearchParams }
  | { kind: 'unknown' };

/**
 * The route of a request target, or `undefined` when it lies outside `basePath` (normalized:
 * leading slash, no trailing one; `''` for the root). `{base}` and `{base}/` list,
 * `{base}/:id` serves the body, `{base}/:id/view` the viewer; any other path under the base
 * is `unknown`.
 *
 * @example
 * ```ts
 * artifactRoute('/artifacts/a1b2/view?op=grep', '/artifacts'); // { kind: 'view', idOrName: 'a1b2', … }
 * artifactRoute('/health', '/artifacts'); // undefined
 * ```
 */
export function artifactRoute(
  target: string | undefined,
  basePath: string,
): ArtifactRoute | undefined {
  // Only origin-form targets: prefixing the origin keeps `//host/x` a path, not a host.
  if (target === undefined || !target.startsWith('/')) return undefined;
  let url: URL;
  try {
    url = new URL(`http://localhost${target}`);
  } catch {
    return undefined;
  }
  const { pathname, searchParams: parameters } = url;
  if (pathname === basePath || pathname === `${basePath}/`) return { kind: 'index', parameters };
  if (!pathname.startsWith(`${basePath}/`)) return undefined;
  const [segment, action, ...rest] = pathname.slice(basePath.length + 1).split('/');
  const idOrName = decodeSegment(segment);
  if (idOrName === undefined || rest.length > 0) return { kind: 'unknown' };
  if (action === undefined) return { kind: 'body', idOrName };
  return action === 'view' ? { kind: 'view', idOrName, parameters } : { kind: 'unknown' };
}

/**
 * A base path as routes compare it: a leading slash, no trailing one, `''` for the root.
 *
 * @example
 * ```ts
 * normalizeBasePath('artifacts/'); // '/artifacts'
 * normalizeBasePath('/'); // ''
 * ```
 */
export function normalizeBasePath(basePath: string): string {
  return `/${basePath}`.replace(/\/+/g, '/').replace(/\/$/, '');
}

function decodeSegment(segment: string | undefined): string | undefined {
  if (!segment) return undefined;
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
