import { opToolMethod } from '../forge/op-tool-method.js';
import type { ToolMethodDescriptor } from '../forge/tool-method-descriptor.js';
import { jsonDeriveOperations } from './json-derive-operations.js';
import { jsonQueryOperations } from './json-query-operations.js';
import { jsonStructureOperations } from './json-structure-operations.js';
import { artifactJsonName, jsonToolArgs } from './json-tool-support.js';
import type { SpooledJsonArtifact } from './spooled-json-artifact.js';

const { shape, type, keys, length, slice } = jsonStructureOperations;
const { get, filter, pluck } = jsonQueryOperations;
const { set, insert, delete: remove, extract } = jsonDeriveOperations;

/**
 * The query a JSON/JSONL artifact adds to the base ones, as models see it:
 * `artifact_json {callId, op, path?, start?, end?, startIndex?, value?, name?}`, one tool whose
 * `op` is `shape`, `type`, `keys`, `length`, `get`, `filter`, `pluck` or `slice` (bounded text
 * that names the `artifact_json` call that continues it), or `set`, `insert`, `delete` or
 * `extract`, which make a new output (see `jsonDeriveOperations`).
 *
 * @example
 * ```ts
 * // A kind of its own for GeoJSON, queried like any JSON output.
 * const geoJsonKind: ArtifactKind<SpooledJsonArtifact> = {
 *   name: 'geojson',
 *   mediaType: 'application/geo+json',
 *   sniff: (sample) => sample.text.includes('"FeatureCollection"'),
 *   artifactClass: SpooledJsonArtifact,
 *   toolMethods: [...baseToolMethods, artifactJson],
 * };
 * ```
 */
export const artifactJson: ToolMethodDescriptor<SpooledJsonArtifact> = opToolMethod({
  name: artifactJsonName,
  description:
    'Query a spooled JSON/JSONL output (JSONL: $[i] is line i+1); start with op shape: field paths, types, counts.',
  args: jsonToolArgs,
  operations: { shape, type, keys, length, get, filter, pluck, slice },
  deriving: {
    description: 'set/insert (at start)/delete/extract (matches as array) make a new output.',
    args: ['value', 'name'],
    operations: { set, insert, delete: remove, extract },
  },
});
