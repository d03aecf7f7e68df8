import { closeSync, fsyncSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';

const copyBytes = 8 * 1024 * 1024;

/**
 * Writes `path` again, 8 MiB at a time, into a new file renamed over it, and syncs it: the
 * page cache then holds the log as a program that has just written it leaves it. How the
 * cache holds a file changes what mmap costs: on this bench's Linux 6.18 with ext4, a file
 * just written sits in 2 MiB folios and `rg` (which maps a single file) counts a rare literal
 * in a 4 GiB log in about 0.2 s; read back while memory is fragmented, the same bytes sit in
 * 4 KiB pages and take it 0.5–0.6 s. `read()` costs about the same either way. Synchronous:
 * the bench times nothing meanwhile.
 *
 * @example
 * ```ts
 * rewriteLog(await ensureLog({ size, shape: accessLog }));
 * ```
 */
export function rewriteLog(path: string): void {
  const partialPath = `${path}.${process.pid}.rewrite`;
  const source = openSync(path, 'r');
  try {
    const target = openSync(partialPath, 'w');
    try {
      const buffer = Buffer.allocUnsafe(copyBytes);
      for (let position = 0; ; ) {
        const read = readSync(source, buffer, 0, buffer.length, position);
        if (read === 0) break;
        for (let written = 0; written < read; ) {
          written += writeSync(target, buffer, written, read - written, position + written);
        }
        position += read;
      }
      // Written back now, not by the kernel's writeback while later runs are timed.
      fsyncSync(target);
    } finally {
      closeSync(target);
    }
    renameSync(partialPath, path);
  } catch (error) {
    rmSync(partialPath, { force: true });
    throw error;
  } finally {
    closeSync(source);
  }
}
