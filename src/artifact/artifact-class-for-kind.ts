import type { ArtifactKind } from './detect-kind.js';
import { SpooledJsonArtifact } from './json/spooled-json-artifact.js';
import { SpooledMarkdownArtifact } from './markdown/spooled-markdown-artifact.js';
import { SpooledArtifact } from './spooled-artifact.js';

/**
 * Picks the artifact class for a detected or declared kind. Pass your own to `spool` or a
 * `ToolSession` (`artifactClassFor`) to add kinds or to turn detection off
 * (`() => SpooledArtifact`).
 */
export type ArtifactClassChooser = (kind: ArtifactKind) => typeof SpooledArtifact;

/**
 * JSON and JSONL → {@link SpooledJsonArtifact}, Markdown → {@link SpooledMarkdownArtifact},
 * anything else → {@link SpooledArtifact}.
 *
 * @example
 * ```ts
 * defaultArtifactClassFor('jsonl'); // SpooledJsonArtifact
 * ```
 */
export const defaultArtifactClassFor: ArtifactClassChooser = (kind) => {
  if (kind === 'json' || kind === 'jsonl') return SpooledJsonArtifact;
  if (kind === 'markdown') return SpooledMarkdownArtifact;
  return SpooledArtifact;
};
