import { realpathSync, statSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { dirname, isAbsolute, resolve, sep } from 'node:path';
import { SpoolforgeError } from '../../shared/spoolforge-error.js';
import { fileError } from '../../spool/file-errors.js';

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
      throw fileError(path, error);
    }
    if (this.#inside(real)) return real;
    throw this.#outside(path);
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
      `${JSON.stringify(path)} is not under the roots this server reads: ${this.roots.join(', ') || 'none (URLs only)'}`,
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
