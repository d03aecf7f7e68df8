import type { Tool } from './tool.js';

const artifactToolBrand = Symbol.for('spoolforge.artifactTool');

/**
 * A tool whose handler answers from an artifact (a forged `artifact_grep`, say). Its results are
 * already bounded text, so it never declares a `kind`, and the calls it makes are marked
 * `fromArtifactTool` so their text is never offered as a `callId` (a new output one derives is).
 *
 * @example
 * ```ts
 * const tool = artifactTool({ name: 'artifact_count', description, inputSchema, handler });
 * isArtifactTool(tool); // true
 * ```
 */
export interface ArtifactTool<Input = unknown> extends Tool<Input> {
  readonly [artifactToolBrand]: true;
  kind?: never;
}

/**
 * Marks a tool as an {@link ArtifactTool}.
 *
 * @example
 * ```ts
 * const tool = artifactTool({ name: 'artifact_read', description, inputSchema, handler, ephemeral: true });
 * ```
 */
export function artifactTool<Input>(tool: Omit<Tool<Input>, 'kind'>): ArtifactTool<Input> {
  return { ...tool, [artifactToolBrand]: true };
}

/**
 * True for a tool made by {@link artifactTool}.
 *
 * @example
 * ```ts
 * if (isArtifactTool(tool)) call.fromArtifactTool = true;
 * ```
 */
export function isArtifactTool(tool: object): boolean {
  return artifactToolBrand in tool;
}
