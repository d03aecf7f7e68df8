import {
  type SpooledArtifact,
  type SpooledJsonArtifact,
  type SpooledJsonArtifactOptions,
  spool,
} from 'spoolforge';
import { afterEach } from 'vitest';

const opened: SpooledArtifact[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((artifact) => artifact.close()));
});

/** Closes `artifacts` after the running test. */
export function closeAfterTest(...artifacts: SpooledArtifact[]): void {
  opened.push(...artifacts);
}

/**
 * `text` spooled as a JSON artifact, closed after the running test: past 1 KiB in a temp file,
 * read as a large output is. `options` (`maxParseBytes`) go to the artifact.
 */
export async function jsonArtifact(
  text: string,
  options: SpooledJsonArtifactOptions & { memoryThreshold?: number } = {},
): Promise<SpooledJsonArtifact> {
  const artifact = await spool(text, { kind: 'json', memoryThreshold: 1024, ...options });
  closeAfterTest(artifact);
  return artifact as SpooledJsonArtifact;
}
