// The free names of the TSDoc examples in src/artifact/kinds/ (see common.ts): a CSV kind.
import type {
  ArtifactKind,
  ArtifactKinds,
  SpooledArtifact,
  ToolMethodDescriptor,
} from '../../src/index.js';

export declare class CsvArtifact extends SpooledArtifact {
  columns(): Promise<string[]>;
}
export declare const csvColumns: ToolMethodDescriptor<CsvArtifact>;
export declare const csvKind: ArtifactKind<CsvArtifact>;
export declare const kinds: ArtifactKinds;
export declare const stream: AsyncIterable<Uint8Array>;
export declare const size: number;
