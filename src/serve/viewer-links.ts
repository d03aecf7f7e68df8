import type { LinkSigner } from './link-signer.js';

/**
 * How a viewer page links to the handler's routes, so the links work for whoever got the page:
 * plain paths, or paths signed like the request was.
 *
 * @example
 * ```ts
 * const links: ViewerLinks = plainViewerLinks('/artifacts');
 * links.artifact('AbC', '/view'); // '/artifacts/AbC/view'
 * ```
 */
export interface ViewerLinks {
  /** The index, or `undefined` when the request may not open it (then there is no link). */
  index(): string | undefined;
  /** An artifact's body (`''`) or viewer (`'/view'`). */
  artifact(id: string, route: '' | '/view'): string;
  /** What a GET form to an artifact's viewer must send besides its fields (its signature). */
  formFields(id: string): [name: string, value: string][];
}

/**
 * Links as plain paths under `basePath`, for a handler without signed links.
 *
 * @example
 * ```ts
 * plainViewerLinks('/artifacts').index(); // '/artifacts/'
 * ```
 */
export function plainViewerLinks(basePath: string): ViewerLinks {
  return {
    index: () => `${basePath}/`,
    artifact: (id, route) => artifactPath(basePath, id) + route,
    formFields: () => [],
  };
}

/**
 * Links signed with the expiry of the request that asked for the page, never later: a page for a
 * request signed over the index links to the index and to each artifact listed; a page for a
 * request signed over one artifact links to that artifact's routes only (the handler renders no
 * other artifact's page for it), and not to the index.
 *
 * @example
 * ```ts
 * const links = signedViewerLinks({ signer, basePath: '/artifacts', expiresAt: Date.now() + 60_000, index: false });
 * links.artifact('AbC', ''); // '/artifacts/AbC?expires=…&signature=…'
 * ```
 */
export function signedViewerLinks(options: {
  signer: LinkSigner;
  basePath: string;
  /** The request's expiry, in epoch milliseconds. */
  expiresAt: number;
  /** Whether the request's signature admits the index. */
  index: boolean;
}): ViewerLinks {
  const { signer, basePath, expiresAt } = options;
  const sign = (path: string, scope: string) => signer.sign(path, { scope, expiresAt });
  return {
    index: () => (options.index ? sign(`${basePath}/`, basePath || '/') : undefined),
    artifact: (id, route) => sign(artifactPath(basePath, id) + route, artifactPath(basePath, id)),
    formFields: (id) => {
      const path = artifactPath(basePath, id);
      const { searchParams } = new URL(`http://localhost${sign(path, path)}`);
      return [...searchParams];
    },
  };
}

/**
 * The path of an artifact's routes, and the scope a signature over that artifact covers.
 *
 * @example
 * ```ts
 * artifactPath('/artifacts', 'build log 7'); // '/artifacts/build%20log%207'
 * ```
 */
export function artifactPath(basePath: string, idOrName: string): string {
  return `${basePath}/${encodeURIComponent(idOrName)}`;
}
