import { SpoolforgeError } from '../shared/spoolforge-error.js';
import { FileSpoolReader } from './file-spool-reader.js';
import { HttpSpoolReader } from './http/http-spool-reader.js';
import type { HttpSpoolReaderOptions } from './http/http-spool-reader-options.js';
import type { ReaderDescriptor, SpoolReader } from './spool-reader.js';

/**
 * Reopens a reader from what its `describe()` gave, in this or another process: `file` opens a
 * {@link FileSpoolReader} on the path, `http` an {@link HttpSpoolReader} on the URL (pass its
 * `options` again: headers and a custom fetch are not part of a descriptor). Memory and temp spools have no descriptor (their
 * `describe()` throws `E_NOT_REOPENABLE`); an unknown kind gives `E_INVALID_ARGUMENT`.
 *
 * @example
 * ```ts
 * const descriptor = artifact.reader.describe?.(); // { kind: 'file', locator: '/var/lib/…/x.data' }
 * const reader = openReader(JSON.parse(JSON.stringify(descriptor)));
 * ```
 */
export function openReader(
  descriptor: ReaderDescriptor,
  options: HttpSpoolReaderOptions = {},
): SpoolReader {
  switch (descriptor.kind) {
    case 'file':
      return new FileSpoolReader(descriptor.locator);
    case 'http':
      return new HttpSpoolReader(descriptor.locator, options);
    default:
      throw new SpoolforgeError(
        'E_INVALID_ARGUMENT',
        `Cannot reopen a reader of kind ${JSON.stringify(descriptor.kind)}`,
      );
  }
}
