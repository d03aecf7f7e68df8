import { SpoolforgeError } from './spoolforge-error.js';

/**
 * Loads a module that needs an optional peer dependency. When Node cannot find that package,
 * the failure becomes `E_MISSING_PEER`, naming the package and the command that installs it,
 * instead of Node's error about a file deep in `dist/`.
 *
 * @example
 * ```ts
 * const { default: pg } = await importPeer(() => import('pg'), {
 *   peer: 'pg',
 *   feature: 'the PostgreSQL conversation log',
 * });
 * ```
 */
export async function importPeer<Module>(
  load: () => Promise<Module>,
  options: { peer: string; feature: string },
): Promise<Module> {
  try {
    return await load();
  } catch (error) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    const missing =
      code === 'ERR_MODULE_NOT_FOUND' &&
      typeof message === 'string' &&
      message.includes(`'${options.peer}'`);
    if (!missing) throw error;
    throw new SpoolforgeError(
      'E_MISSING_PEER',
      `${options.feature} needs ${options.peer}, an optional peer dependency of spoolforge that is not installed: npm install ${options.peer}`,
      { cause: error },
    );
  }
}
