import { type ArtifactKinds, labelKind } from '../artifact/kinds/artifact-kinds.js';
import { SpooledArtifact } from '../artifact/spooled-artifact.js';
import { SpoolforgeError } from '../shared/spoolforge-error.js';
import type { DecodedSidecar } from './sidecar.js';
import type { StoreBackend } from './store-backend.js';

/**
 * Opens a stored artifact from its checked sidecar: a reader of its data (not bound to any
 * signal, the artifact outlives the call that opens it) and the class of its kind in `kinds`
 * (a plain `SpooledArtifact` for a kind not there), with the stored line index. Data that is
 * gone or not the recorded length gives `E_ARTIFACT_DAMAGED`, naming the artifact.
 *
 * @example
 * ```ts
 * const sidecar = await backend.readSidecar(id);
 * if (!sidecar) return;
 * await using artifact = await openStoredArtifact({ backend, sidecar, kinds: store.kinds });
 * ```
 */
export async function openStoredArtifact(options: {
  backend: StoreBackend;
  sidecar: DecodedSidecar;
  kinds: ArtifactKinds;
}): Promise<SpooledArtifact> {
  const { backend, sidecar, kinds } = options;
  const { record, lineIndex } = sidecar;
  const reader = await backend.openData(record.id, { byteLength: record.byteLength });
  const size = await reader.byteLength().catch(async (error: unknown) => {
    await reader.close?.();
    if (SpoolforgeError.isInstance(error) && error.code === 'E_ABORTED') throw error;
    throw new SpoolforgeError(
      'E_ARTIFACT_DAMAGED',
      `Artifact ${record.id} has lost its data file`,
      {
        cause: error,
      },
    );
  });
  if (size !== record.byteLength) {
    await reader.close?.();
    throw new SpoolforgeError(
      'E_ARTIFACT_DAMAGED',
      `Artifact ${record.id} is damaged: its data file has ${size} bytes, not ${record.byteLength}`,
    );
  }
  const kind = kinds.get(record.kind);
  const artifact = new (kind?.artifactClass ?? SpooledArtifact)(reader, {
    ...(record.name === undefined ? {} : { name: record.name }),
    ...(record.mediaType === undefined ? {} : { mediaType: record.mediaType }),
    lineIndex,
  });
  return kind ? labelKind(artifact, kind) : artifact;
}
