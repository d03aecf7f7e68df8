import type { ToolMethodDescriptor } from '../forge/tool-method-descriptor.js';
import { jsonQueryToolMethods } from './json-query-tools.js';
import { jsonStructureToolMethods } from './json-structure-tools.js';
import type { SpooledJsonArtifact } from './spooled-json-artifact.js';

/**
 * The queries a JSON artifact adds to the base ones, as models see them (names pinned by
 * pinned names): `artifact_json_type`, `_keys`, `_length`, `_get`, `_filter`, `_slice`, `_pluck`,
 * `_shape`.
 *
 * @example
 * ```ts
 * jsonToolMethods.map((method) => method.name); // ['artifact_json_shape', 'artifact_json_type', …]
 * ```
 */
export const jsonToolMethods: readonly ToolMethodDescriptor<SpooledJsonArtifact>[] = Object.freeze([
  ...jsonStructureToolMethods.slice(-1),
  ...jsonStructureToolMethods.slice(0, -1),
  ...jsonQueryToolMethods,
] as unknown as ToolMethodDescriptor<SpooledJsonArtifact>[]);
