/**
 * `spoolforge/engine`: the pieces the package entry is built from, for building your own tools
 * on the same engine — byte readers' internals, the line index, chunked and parallel scans, the
 * grep engine and its matchers, kind detection, forging and model-facing line formatting,
 * tokenizers, handle rendering. Less stable than `spoolforge`: these follow the engine's needs.
 * Every run-time export is pinned by spec/package-exports.spec.ts: a new one is a decision.
 *
 * @packageDocumentation
 */

// Artifact: decoding, kind detection, forging, model-facing lines, JSON helpers, tokens.
export { decodeUtf8 } from './artifact/decode-utf8.js';
export {
  forgeArtifactTools,
  listToolName,
} from './artifact/forge/forge-tools.js';
export {
  BoundedText,
  continueWith,
  cutLine,
  defaultResultLimits,
  fromModelLine,
  fromModelRange,
  toModelLine,
} from './artifact/forge/model-lines.js';
export { streamGrep } from './artifact/grep-artifact.js';
export { artifactJson } from './artifact/json/artifact-json.js';
export {
  findJsonSyntaxError,
  type JsonSyntaxProblem,
} from './artifact/json/find-json-syntax-error.js';
export { formatShapeField, JsonShape } from './artifact/json/json-shape.js';
export { sniffBytes } from './artifact/kinds/sniff-sample.js';
export { artifactMd } from './artifact/markdown/artifact-md.js';
export { sniffMediaType } from './artifact/media.js';
export {
  type ResolvedReferences,
  type ResolveReferencesOptions,
  resolveArtifactReferences,
} from './artifact/references/resolve-references.js';
export { approximateTokens } from './artifact/tokens/approximate-tokens.js';
export type { Tokenizer } from './artifact/tokens/bpe-tokenizer.js';
export {
  defaultExactUpTo,
  type EstimateTokensOptions,
  estimateTokens,
} from './artifact/tokens/estimate-tokens.js';
export { countTextTokens, loadTokenizer } from './artifact/tokens/load-tokenizer.js';
// Context: one message cut to its limits.
export { messageView, toolOutputRef } from './context/message-view.js';
// Executor: handles and single tool calls.
export { renderHandle } from './executor/render-handle.js';
export { executeToolCall } from './executor/tool-executor.js';
export { defaultInlineThreshold } from './executor/wrap-result.js';
export { CaseFoldingBytesLineMatcher } from './grep/case-folding-bytes-line-matcher.js';
// Grep: the byte-level engine, its matchers and the parallel scans.
export { compileMatcher, patternRegex } from './grep/compile-matcher.js';
export { grepScan } from './grep/grep-scan.js';
export type { GrepScanOptions, GrepScanResult } from './grep/grep-scan-options.js';
export type { GrepSink } from './grep/grep-sink.js';
export { BytesLineMatcher, type LineMatcher } from './grep/line-matcher.js';
export {
  type ParallelGrepCountOptions,
  parallelGrepCount,
} from './grep/parallel-grep-count.js';
export {
  type ParallelGrepScanOptions,
  type ParallelGrepScanResult,
  parallelGrepScan,
} from './grep/parallel-grep-scan.js';
export {
  RegexLineMatcher,
  type RegexLineMatcherOptions,
} from './grep/regex-line-matcher.js';
export {
  type RegexWorkerLease,
  RegexWorkerPool,
  type RegexWorkerPoolOptions,
  type RegexWorkerRequest,
  regexWorkerPool,
} from './grep/regex-worker-pool.js';
// Shared utilities.
export { formatBytes } from './shared/format-bytes.js';
export { abortError, throwIfAborted } from './shared/spoolforge-error.js';
// Spool: the line index, chunked reads, line seeking, parallel parts.
export { redactUrl } from './spool/http/redact-url.js';
export { type LineBlocksOptions, lineBlocks } from './spool/line-blocks.js';
export {
  type LineCheckpoint,
  LineIndex,
  type LineIndexOptions,
  type LineIndexSnapshot,
  type LineIndexSnapshotView,
} from './spool/line-index.js';
export { countNewlines } from './spool/newlines.js';
export {
  buildLineIndexInParallel,
  type ParallelIndexOptions,
} from './spool/parallel-line-index.js';
export { type ByteRange, fileParts, lineAlignedRanges } from './spool/parallel-ranges.js';
export { type ReaderChunksOptions, readerChunks } from './spool/reader-chunks.js';
export { type SeekLineOptions, seekLine } from './spool/seek-line.js';
export { type TailOffsetOptions, tailOffset } from './spool/tail-offset.js';
export { defaultThreadCount } from './spool/thread-count.js';
// Store: artifact ids.
export { isArtifactId } from './store/artifact-id.js';
// Tools: the marker of forged artifact tools.
export { type ArtifactTool, artifactTool, isArtifactTool } from './tools/artifact-tool.js';
