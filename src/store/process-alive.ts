/**
 * True unless the system says no process has this pid (`ESRCH`). A process of another user
 * (`EPERM`) is alive; a number that cannot be a pid is not.
 *
 * @example
 * ```ts
 * if (!isProcessAlive(writerPid)) await rm(temporaryFile);
 * ```
 */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid < 1 || pid > 0x7fffffff) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}
