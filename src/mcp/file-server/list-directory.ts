import type { Stats } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { defaultResultLimits, type ResultLimits } from '../../artifact/forge/model-lines.js';
import { formatBytes } from '../../shared/format-bytes.js';
import { quoteInput } from '../../shared/quote-input.js';
import { SpoolforgeError, throwIfAborted } from '../../shared/spoolforge-error.js';
import { fileError } from '../../spool/file-errors.js';
import type { ConfinedFile, ConfinedPaths } from './confined-paths.js';
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
  const { paths, urls, path } = options;
  if (path == null) {
    const rows = [
      `Roots (paths are absolute or relative to the first): ${paths.roots.map((root) => `${root}/`).join(', ') || 'none'}`,
    ];
    if (urls.prefixes.length > 0) rows.push(`URL prefixes: ${urls.prefixes.join(', ')}`);
    return rows.join('\n');
  }
  if (isUrl(path)) {
    throw new SpoolforgeError(
      'E_INVALID_TOOL_ARGS',
      `${quoteInput(path)}: a URL has no entries to list`,
    );
  }
  const directory = await paths.open(path, { directory: true }).catch((error: unknown) => {
    if (
      SpoolforgeError.isInstance(error) &&
      (error.cause as NodeJS.ErrnoException)?.code === 'ENOTDIR'
    ) {
      throw new SpoolforgeError(
        'E_INVALID_TOOL_ARGS',
        `${quoteInput(path)} is not a directory: file_stat describes it`,
      );
    }
    throw error;
  });
  try {
    return await listEntries(paths, directory, { ...options, path });
  } finally {
    await directory.handle.close();
  }
}

/** The rows of an open directory, read through its descriptor. */
async function listEntries(
  paths: ConfinedPaths,
  directory: ConfinedFile,
  options: { path: string; limits: ResultLimits; signal: AbortSignal },
): Promise<string> {
  const { real, reopen } = directory;
  const { signal } = options;
  const entries = await readdir(reopen, { withFileTypes: true }).catch((error: unknown) => {
    throw fileError(quoteInput(options.path), error);
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
    const row = await describeEntry(paths, directory, entry.name);
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
  directory: ConfinedFile,
  name: string,
): Promise<string> {
  // Through the open directory and not followed: an entry swapped for a link is seen as one.
  const stats = await lstat(join(directory.reopen, name)).catch(() => undefined);
  if (!stats?.isSymbolicLink()) return `${name}${describeStats(stats)}`;
  // Followed only inside the roots, and described by what was opened: a link out says so, and
  // nothing of what it points at.
  const target = await paths
    .open(join(directory.real, name))
    .catch((error: unknown) =>
      SpoolforgeError.isInstance(error) && error.code === 'E_PATH_NOT_ALLOWED'
        ? 'outside'
        : 'broken',
    );
  if (target === 'outside' || target === 'broken') {
    return `${name} -> (${target === 'outside' ? 'outside the roots' : 'broken link'})`;
  }
  await target.handle.close();
  return `${name} -> ${target.real}${describeStats(target.stats)}`;
}

/** `/` for a directory, size and time for a file, the type of anything else. */
function describeStats(stats: Stats | undefined): string {
  if (!stats) return '  (unreadable)';
  if (stats.isDirectory()) return '/';
  if (!stats.isFile()) return '  (not a regular file)';
  const modified = `${stats.mtime.toISOString().slice(0, 16)}Z`;
  return `  ${stats.size} (${formatBytes(stats.size)})  modified ${modified}`;
}
