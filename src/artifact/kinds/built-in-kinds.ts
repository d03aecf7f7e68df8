import { baseToolMethods } from '../forge/base-tool-methods.js';
import { artifactJson } from '../json/artifact-json.js';
import { SpooledJsonArtifact } from '../json/spooled-json-artifact.js';
import { artifactMd } from '../markdown/artifact-md.js';
import { SpooledMarkdownArtifact } from '../markdown/spooled-markdown-artifact.js';
import { SpooledArtifact } from '../spooled-artifact.js';
import type { ArtifactKind } from './artifact-kind.js';
import { ArtifactKinds } from './artifact-kinds.js';
import { builtInSniffers } from './built-in-sniffers.js';
import { jsonlMediaTypes, jsonMediaTypes } from './media-types.js';

const jsonQueries = [...baseToolMethods, artifactJson];

/** The built-in kinds but for their sniffers, which `builtInSniffers` holds in their order. */
const definitions: Record<BuiltInKindName, Omit<ArtifactKind, 'name' | 'sniff'>> = {
  // Bytes with a NUL; no media type declares them.
  binary: {
    mediaType: 'application/octet-stream',
    artifactClass: SpooledArtifact,
    toolMethods: baseToolMethods,
  },
  jsonl: {
    mediaType: 'application/x-ndjson',
    mediaTypes: jsonlMediaTypes,
    artifactClass: SpooledJsonArtifact,
    toolMethods: jsonQueries,
  },
  json: {
    mediaType: 'application/json',
    mediaTypes: jsonMediaTypes,
    artifactClass: SpooledJsonArtifact,
    toolMethods: jsonQueries,
  },
  markdown: {
    mediaType: 'text/markdown',
    mediaTypes: ['text/markdown', 'text/x-markdown'],
    artifactClass: SpooledMarkdownArtifact,
    toolMethods: [...baseToolMethods, artifactMd],
  },
  // Everything else: last, so it takes what no other sniffer recognised.
  text: {
    mediaType: 'text/plain',
    mediaTypes: ['text/*'],
    artifactClass: SpooledArtifact,
    toolMethods: baseToolMethods,
  },
};

type BuiltInKindName = (typeof builtInSniffers)[number][0];

/**
 * The built-in kinds, in the order they are sniffed: `binary` (NUL bytes), `jsonl` (a JSON
 * object or array per line) and `json` (`SpooledJsonArtifact`), `markdown` (a heading, a code
 * fence or front matter, or two weaker signs: `SpooledMarkdownArtifact`), and `text`
 * (`SpooledArtifact`) for everything else. These names are stored in store sidecars.
 *
 * @example
 * ```ts
 * defaultArtifactKinds.sniff(new TextEncoder().encode('{"a":1}\n{"a":2}\n')).name; // 'jsonl'
 * defaultArtifactKinds.ofMediaType('text/markdown')?.artifactClass; // SpooledMarkdownArtifact
 * ```
 */
export const defaultArtifactKinds = new ArtifactKinds(
  builtInSniffers.map(([name, sniff]) => ({ name, sniff, ...definitions[name] })),
);
