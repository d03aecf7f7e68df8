import { SpoolforgeError } from '../shared/spoolforge-error.js';

/**
 * Turns a Node file-system error into a {@link SpoolforgeError} whose message names the path the
 * way GNU tools do (`build.log: No such file or directory`); a `SpoolforgeError` passes through.
 *
 * @example
 * ```ts
 * const handle = await open(path).catch((error) => { throw fileError(path, error); });
 * ```
 */
export function fileError(path: string, error: unknown): SpoolforgeError {
  if (SpoolforgeError.isInstance(error)) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return new SpoolforgeError('E_FILE_NOT_FOUND', `${path}: No such file or directory`, {
        cause: error,
      });
    case 'EISDIR':
      return new SpoolforgeError('E_NOT_A_FILE', `${path}: Is a directory`, { cause: error });
    case 'EACCES':
    case 'EPERM':
      return new SpoolforgeError('E_IO', `${path}: Permission denied`, { cause: error });
    default:
      return new SpoolforgeError('E_IO', `${path}: ${systemMessage(error)}`, { cause: error });
  }
}

/**
 * Node's message without the paths it quotes (`ENAMETOOLONG: name too long, open '/var/…'`):
 * the message names the path already, and a path sent by a model may be very long.
 */
function systemMessage(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const { path, dest } = error as NodeJS.ErrnoException & { dest?: unknown };
  let message = error.message;
  if (typeof dest === 'string') message = message.replace(` -> '${dest}'`, '');
  if (typeof path === 'string') message = message.replace(` '${path}'`, '');
  return message;
}
