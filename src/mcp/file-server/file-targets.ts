import type { ArtifactKinds } from '../../artifact/kinds/artifact-kinds.js';
import { quoteInput } from '../../shared/quote-input.js';
import { SpoolforgeError } from '../../shared/spoolforge-error.js';
import type { HttpSpoolReaderOptions } from '../../spool/http/http-spool-reader-options.js';
import { allowedRedirectsFetch } from './allowed-redirects-fetch.js';
import type { ConfinedPaths } from './confined-paths.js';
import { type OpenedTarget, openFile, openUrl } from './open-target.js';
import { OpenedTargets } from './opened-targets.js';
import type { UrlAllowList } from './url-allow-list.js';

/**
 * Whether a `path` argument names a URL (any scheme: the allow-list refuses all but http(s)).
 *
 * @example
 * ```ts
 * isUrl('https://ci.example.com/run.log'); // true
 * ```
 */
export function isUrl(path: string): boolean {
  return /^[a-z][a-z\d+.-]*:\/\//i.test(path);
}

/**
 * What a file server's `path` arguments reach: files under its roots and URLs under its allowed
 * prefixes, opened as artifacts of their kinds and kept open between queries.
 *
 * @example
 * ```ts
 * const targets = new FileTargets({ paths, urls, kinds: defaultArtifactKinds, http: {}, capacity: 8 });
 * await targets.use('build.log', signal, async ({ artifact }) => artifact.lineCount());
 * ```
 */
export class FileTargets {
  readonly paths: ConfinedPaths;
  readonly urls: UrlAllowList;
  readonly #kinds: ArtifactKinds;
  readonly #http: HttpSpoolReaderOptions;
  readonly #opened: OpenedTargets;

  constructor(options: {
    paths: ConfinedPaths;
    urls: UrlAllowList;
    kinds: ArtifactKinds;
    http: HttpSpoolReaderOptions;
    capacity: number;
  }) {
    this.paths = options.paths;
    this.urls = options.urls;
    this.#kinds = options.kinds;
    this.#http = {
      ...options.http,
      fetch: allowedRedirectsFetch(options.urls, options.http.fetch),
    };
    this.#opened = new OpenedTargets(options.capacity);
  }

  /**
   * Runs `use` on the file or URL `path` names. A path outside the roots or a URL under no
   * prefix is `E_PATH_NOT_ALLOWED`; a directory, a FIFO, a device or a socket is `E_NOT_A_FILE`.
   * A file is read only through the descriptor its check opened.
   */
  async use<T>(
    path: string,
    signal: AbortSignal,
    use: (opened: OpenedTarget) => Promise<T>,
  ): Promise<T> {
    if (isUrl(path)) {
      const url = this.urls.check(path);
      return this.#opened.use(url, 'url', () => openUrl(url, this.#kinds, this.#http), use);
    }
    const file = await this.paths.open(path);
    let adopted = false;
    try {
      const { stats } = file;
      if (stats.isDirectory()) {
        throw new SpoolforgeError(
          'E_NOT_A_FILE',
          `${quoteInput(path)}: Is a directory (file_list lists it)`,
        );
      }
      if (!stats.isFile()) {
        throw new SpoolforgeError(
          'E_NOT_A_FILE',
          `${quoteInput(path)}: Not a regular file (a FIFO, a device or a socket)`,
        );
      }
      // Another inode, size or time means another version: reopened (a grown log resumes its
      // index). The same inode kept open is the same file, so its descriptor serves as well.
      const version = [stats.dev, stats.ino, stats.size, stats.mtimeMs, stats.ctimeMs].join(':');
      const open = (previous: OpenedTarget | undefined) => {
        adopted = true;
        return openFile(file, this.#kinds, { previous, signal });
      };
      return await this.#opened.use(file.real, version, open, use);
    } finally {
      if (!adopted) await file.handle.close();
    }
  }

  /** Closes every file and URL kept open. */
  close(): Promise<void> {
    return this.#opened.close();
  }
}
