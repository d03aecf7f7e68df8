export type { ArtifactLine } from './artifact/artifact-line.js';
export { decodeUtf8 } from './artifact/decode-utf8.js';
export { type ArtifactKind, detectKind } from './artifact/detect-kind.js';
export { approximateTokens, type TokenEncoding } from './artifact/estimate-tokens.js';
export { compileMatcher, type PatternOptions } from './artifact/grep/compile-matcher.js';
export {
  type GrepScanOptions,
  type GrepScanResult,
  type GrepSink,
  grepScan,
} from './artifact/grep/grep-scan.js';
export { BytesLineMatcher, type LineMatcher } from './artifact/grep/line-matcher.js';
export {
  RegexLineMatcher,
  type RegexLineMatcherOptions,
} from './artifact/grep/regex-line-matcher.js';
export type { GrepLine, GrepOptions, GrepResult } from './artifact/grep-types.js';
export { type SpoolOptions, type SpoolSource, spool } from './artifact/spool.js';
export {
  type QueryOptions,
  SpooledArtifact,
  type SpooledArtifactOptions,
} from './artifact/spooled-artifact.js';
export {
  abortError,
  SpoolforgeError,
  type SpoolforgeErrorCode,
  throwIfAborted,
} from './shared/spoolforge-error.js';
export { FileSpoolReader } from './spool/file-spool-reader.js';
export { type LineBlocksOptions, lineBlocks } from './spool/line-blocks.js';
export { type LineCheckpoint, LineIndex, type LineIndexOptions } from './spool/line-index.js';
export { MemorySpoolReader } from './spool/memory-spool-reader.js';
export { countNewlines } from './spool/newlines.js';
export { type ReaderChunksOptions, readerChunks } from './spool/reader-chunks.js';
export { type SeekLineOptions, seekLine } from './spool/seek-line.js';
export type { ReaderDescriptor, ReadOptions, SpoolReader } from './spool/spool-reader.js';
export { SpoolWriter, type SpoolWriterOptions } from './spool/spool-writer.js';
export { type TailOffsetOptions, tailOffset } from './spool/tail-offset.js';
