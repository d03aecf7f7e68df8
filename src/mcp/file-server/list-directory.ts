import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { defaultResultLimits, type ResultLimits } from '../../artifact/forge/model-lines.js';
import { formatBytes } from '../../shared/format-bytes.js';
import { SpoolforgeError, throwIfAborted } from '../../shared/spoolforge-error.js';
import { fileError } from '../../spool/file-errors.js';
import type { ConfinedPaths } from './confined-paths.js';
import { isUrl } from './file-targets.js';
import type { UrlAllowList } from './url-allow-list.js';

/** Room kept for the closing note. */
const noteReserve = 256;

/**
 * What `file_list` answers: with no `path`, the roots and the allowed URL prefixes; with one, the
 * directory's entries in name order, one a line: `name/` for a directory, `name  BYTES (size)
 * modified TIME` for a file, and where a symbolic link leads (a link out of the roots is shown,
 * not followed). Bounded by `maxResultBytes`; a cut listing says how many entries it left out.
 *
 * @example
 * ```ts
 * await listDirectory({ paths, urls, path: 'app', limits: {}, signal });
 * // '/var/log/app: 2 entries\nbuild.log  1048576 (1.0 MiB)  modified 2026-11-24T08:12Z\nold/'
 * ```
 */
export async function listDirectory(options: {
  paths: ConfinedPaths;
  urls: UrlAllowList;
  path: string | undefined;
  limits: ResultLimits;
  signal: AbortSignal;
}): Promise<string> {
  const { paths, urls, path, signal } = options;
  if (path == null) {
    const rows = [
      `Roots (paths are absolute or relative to the first): ${paths.roots.map((root) => `${root}/`).join(', ') || 'none'}`,
    ];
    if (urls.prefixes.length > 0) rows.push(`URL prefixes: ${urls.prefixes.join(', ')}`);
    return rows.join('\n');
  }
  if (isUrl(path)) {
    throw new SpoolforgeError('E_INVALID_TOOL_ARGS', `${path}: a URL has no entries to list`);
  }
  const real = await paths.resolve(path);
  const entries = await readdir(real, { withFileTypes: true }).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') {
      throw new SpoolforgeError(
        'E_INVALID_TOOL_ARGS',
        `${path} is a file, not a directory: file_stat describes it`,
      );
    }
    throw fileError(path, error);
  });
  entries.sort((first, second) =>
    first.name < second.name ? -1 : first.name > second.name ? 1 : 0,
  );
  const budget =
    (options.limits.maxResultBytes ?? defaultResultLimits.maxResultBytes) - noteReserve;
  const header = `${real}: ${entries.length} ${entries.length === 1 ? 'entry' : 'entries'}`;
  const rows = [header];
  let bytes = Buffer.byteLength(header);
  for (const entry of entries) {
    throwIfAborted(signal);
    const row = await describeEntry(paths, real, entry);
    bytes += Buffer.byteLength(row) + 1;
    if (bytes > budget) {
      const left = entries.length - (rows.length - 1);
      rows.push(`[cut: ${left} more entries not shown, in name order after the last above]`);
      break;
    }
    rows.push(row);
  }
  return rows.join('\n');
}

async function describeEntry(
  paths: ConfinedPaths,
  directory: string,
  entry: Dirent,
): Promise<string> {
  const path = join(directory, entry.name);
  if (entry.isSymbolicLink()) {
    // Followed only inside the roots: a link out says so, and nothing of what it points at.
    const target = await paths
      .resolve(path)
      .catch((error: unknown) =>
        SpoolforgeError.isInstance(error) && error.code === 'E_PATH_NOT_ALLOWED'
          ? 'outside'
          : 'broken',
      );
    if (target === 'outside' || target === 'broken') {
      return `${entry.name} -> (${target === 'outside' ? 'outside the roots' : 'broken link'})`;
    }
    return `${entry.name} -> ${target}${await describeStats(target)}`;
  }
  if (entry.isDirectory()) return `${entry.name}/`;
  return `${entry.name}${await describeStats(path)}`;
}

/** `/` for a directory, size and time for a file, the type of anything else. */
async function describeStats(path: string): Promise<string> {
  const stats = await stat(path).catch(() => undefined);
  if (!stats) return '  (unreadable)';
  if (stats.isDirectory()) return '/';
  if (!stats.isFile()) return '  (not a regular file)';
  const modified = `${stats.mtime.toISOString().slice(0, 16)}Z`;
  return `  ${stats.size} (${formatBytes(stats.size)})  modified ${modified}`;
}
