import type { ToolMethodDescriptor } from '../forge/tool-method-descriptor.js';
import type { SpooledArtifact } from '../spooled-artifact.js';
import type { SniffSample } from './sniff-sample.js';

/**
 * What an output is, in one place: its name, the media types that declare it and the one its
 * artifacts get, how its first bytes are recognised, the class its artifacts are, and the
 * queries forged for them. Register it once with `defaultArtifactKinds.with(kind)` and pass the
 * registry as `kinds` to `spool`, `ArtifactStore.open` and `ToolSession` (and so the provider
 * adapters).
 *
 * @example
 * ```ts
 * const csvKind: ArtifactKind<CsvArtifact> = {
 *   name: 'csv',
 *   mediaType: 'text/csv',
 *   mediaTypes: ['text/csv'],
 *   sniff: (sample) => /^[^,\n]+(?:,[^,\n]+)+\r?\n/.test(sample.text),
 *   artifactClass: CsvArtifact,
 *   toolMethods: [...baseToolMethods, csvColumns],
 * };
 * ```
 */
export interface ArtifactKind<Artifact extends SpooledArtifact = SpooledArtifact> {
  /**
   * The kind's name: in handles and listings, store records (and their sidecars on disk),
   * `spool(…, { kind })`, `put(…, { kind })` and a tool's `kind`.
   */
  readonly name: string;
  /** The media type its artifacts get when the producer declared none. */
  readonly mediaType: string;
  /**
   * Declared media types that mean this kind: exact (`text/csv`), a whole type (`text/*`) or a
   * structured-syntax suffix (`+json`). An exact match in any kind wins over a family.
   */
  readonly mediaTypes?: readonly string[];
  /**
   * Whether an output's first bytes are this kind. Kinds are asked in registry order and the
   * first to say yes wins; a kind without one is only ever declared.
   */
  sniff?(sample: SniffSample): boolean;
  /** The class its artifacts are opened as (`SpooledArtifact` or a subclass). */
  readonly artifactClass: typeof SpooledArtifact;
  /**
   * The queries forged for its outputs, in the order models see them; the text ones are
   * `baseToolMethods`, so a kind usually starts with them. A tool name means one descriptor
   * across a registry: kinds that offer the same query share its descriptor.
   */
  readonly toolMethods: readonly ToolMethodDescriptor<Artifact>[];
}
