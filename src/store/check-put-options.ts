import type { ArtifactKinds } from '../artifact/kinds/artifact-kinds.js';
import { checkOutputName } from '../artifact/output-name.js';
import { SpoolforgeError } from '../shared/spoolforge-error.js';
import type { PutOptions } from './artifact-store-types.js';
import { msgpack } from './msgpack.js';

/**
 * Fails with `E_INVALID_ARGUMENT` before a put reads any byte when its options cannot be
 * stored: a kind `kinds` does not have, a name that is not an output's name (one line of 1 to
 * 100 characters, as `spool()` takes), metadata msgpack cannot encode.
 *
 * @example
 * ```ts
 * checkPutOptions({ name: 'ci build 4812', metadata: { job: 4812 } }, defaultArtifactKinds);
 * ```
 */
export function checkPutOptions(options: PutOptions, kinds: ArtifactKinds): void {
  if (options.kind !== undefined) kinds.named(options.kind);
  checkOutputName(options.name, 'E_INVALID_ARGUMENT');
  try {
    msgpack().encode(options.metadata ?? {}, { ignoreUndefined: true });
  } catch (error) {
    throw new SpoolforgeError('E_INVALID_ARGUMENT', 'metadata is not msgpack-encodable', {
      cause: error,
    });
  }
}
