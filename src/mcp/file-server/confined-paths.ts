import { constants, realpathSync, type Stats, statSync } from 'node:fs';
import { type FileHandle, open, readlink, realpath, stat } from 'node:fs/promises';
import { dirname, isAbsolute, resolve, sep } from 'node:path';
import { quoteInput } from '../../shared/quote-input.js';
import { SpoolforgeError } from '../../shared/spoolforge-error.js';
import { fileError } from '../../spool/file-errors.js';

/**
 * A file or directory opened under a root, checked by its descriptor: read it through `handle`
 * only, never again by path.
 */
export interface ConfinedFile {
  handle: FileHandle;
  /** Where the descriptor leads, under a root. */
  real: string;
  /** The descriptor's stats (fstat). */
  stats: Stats;
  /** A path that opens this same file again (`/proc/self/fd/N` on Linux), for worker threads. */
  reopen: string;
}

/** Opens never follow a link in the last part, never wait for a FIFO's writer. */
const openFlags = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** Resolutions tried when the last part keeps turning into a link between resolve and open. */
const openAttempts = 3;

interface Root {
  /** As given, made absolute: what messages show. */
  shown: string;
  /** Its real path: what a resolved path must lie under. */
  real: string;
}

/**
 * The directories a file server may read under. A path is taken as absolute, or relative to the
 * first root, then resolved by the system (`..`, and every symbolic link, its parents' too) and
 * allowed only inside a root's real path: no `..`, no link pointing out and no linked parent
 * leaves them. A root that is itself a link is allowed as where it points.
 *
 * @example
 * ```ts
 * const paths = new ConfinedPaths(['/var/log']);
 * await paths.resolve('app/build.log'); // '/var/log/app/build.log', or E_PATH_NOT_ALLOWED
 * ```
 */
export class ConfinedPaths {
  readonly #roots: readonly Root[];

  /** Each root must be an existing directory (`E_FILE_NOT_FOUND`, `E_INVALID_ARGUMENT`). */
  constructor(roots: readonly string[]) {
    this.#roots = roots.map((root) => {
      const shown = resolve(root);
      let real: string;
      try {
        real = realpathSync(shown);
      } catch (error) {
        throw fileError(shown, error);
      }
      if (!statSync(real).isDirectory())
        throw new SpoolforgeError('E_INVALID_ARGUMENT', `The root ${shown} is not a directory`);
      return { shown, real };
    });
  }

  /** The roots as given (absolute), in order. */
  get roots(): readonly string[] {
    return this.#roots.map((root) => root.shown);
  }

  /**
   * The real path of `path` when it lies under a root; else `E_PATH_NOT_ALLOWED` naming the
   * roots. A missing path under a root is `E_FILE_NOT_FOUND`; one outside says only that it is
   * outside, whether it exists or not, and so does any other failure to resolve it.
   */
  async resolve(path: string): Promise<string> {
    const first = this.#roots[0];
    if (path === '' || (!isAbsolute(path) && first === undefined)) throw this.#outside(path);
    // Joined as a string, not normalised: `link/..` must mean what the system makes of it.
    const joined = isAbsolute(path) || first === undefined ? path : `${first.real}${sep}${path}`;
    let real: string;
    try {
      real = await realpath(joined);
    } catch (error) {
      // A failure (missing, a link loop, a file taken for a directory) is told only inside.
      if (!this.#inside(await nearestExisting(joined))) throw this.#outside(path);
      throw fileError(quoteInput(path), error);
    }
    if (this.#inside(real)) return real;
    throw this.#outside(path);
  }

  /**
   * Opens `path` (a directory with `directory`) and checks what was opened, not the path: the
   * descriptor's own path must lie under a root, so a file or parent swapped for a link between
   * the check and the open is refused (`E_PATH_NOT_ALLOWED`). Non-blocking: a FIFO opens at once,
   * for the caller to refuse by `stats`. Only where the system cannot tell a descriptor's path
   * (no `/proc`) is the file's identity compared with the resolved path's instead.
   */
  async open(path: string, options: { directory?: boolean } = {}): Promise<ConfinedFile> {
    const flags = openFlags | (options.directory ? constants.O_DIRECTORY : 0);
    for (let attempt = 1; ; attempt++) {
      const real = await this.resolve(path);
      let handle: FileHandle;
      try {
        handle = await open(real, flags);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ELOOP')
          throw fileError(quoteInput(path), error);
        if (attempt === openAttempts) throw this.#outside(path);
        continue;
      }
      try {
        const stats = await handle.stat();
        const reopen = `/proc/self/fd/${handle.fd}`;
        const opened = await readlink(reopen).catch(() => undefined);
        if (opened !== undefined ? this.#inside(opened) : await sameFile(real, stats)) {
          return {
            handle,
            real: opened ?? real,
            stats,
            reopen: opened !== undefined ? reopen : real,
          };
        }
        throw this.#outside(path);
      } catch (error) {
        await handle.close();
        throw error;
      }
    }
  }

  #inside(real: string): boolean {
    return this.#roots.some(
      (root) =>
        real === root.real ||
        real.startsWith(root.real.endsWith(sep) ? root.real : `${root.real}${sep}`),
    );
  }

  #outside(path: string): SpoolforgeError {
    return new SpoolforgeError(
      'E_PATH_NOT_ALLOWED',
      `${JSON.stringify(quoteInput(path))} is not under the roots this server reads: ${this.roots.join(', ') || 'none (URLs only)'}`,
    );
  }
}

/** The real path of the nearest ancestor of a missing path that exists. */
async function nearestExisting(path: string): Promise<string> {
  for (let current = dirname(path); ; current = dirname(current)) {
    const real = await realpath(current).catch(() => undefined);
    if (real !== undefined || current === dirname(current)) return real ?? current;
  }
}

/** Whether `real` (checked under a root) is still the file `stats` describes. */
async function sameFile(real: string, stats: Stats): Promise<boolean> {
  const now = await stat(real).catch(() => undefined);
  return now !== undefined && now.dev === stats.dev && now.ino === stats.ino;
}
