export type { ArtifactLine } from './artifact/artifact-line.js';
export { decodeUtf8 } from './artifact/decode-utf8.js';
export { baseToolMethods } from './artifact/forge/base-tool-methods.js';
export {
  type ForgeOptions,
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
  type ResultLimits,
  toModelLine,
} from './artifact/forge/model-lines.js';
export type {
  ToolMethodContext,
  ToolMethodDescriptor,
} from './artifact/forge/tool-method-descriptor.js';
export type { GrepLine, GrepOptions, GrepResult, GrepTarget } from './artifact/grep-artifact.js';
export { streamGrep } from './artifact/grep-artifact.js';
export {
  findJsonSyntaxError,
  type JsonSyntaxProblem,
} from './artifact/json/find-json-syntax-error.js';
export type { EntryRange, JsonDocument, JsonEntry } from './artifact/json/json-document.js';
export type { JsonMatch } from './artifact/json/json-path-query.js';
export type { JsonType } from './artifact/json/json-scan-types.js';
export { formatShapeField, JsonShape, type ShapeField } from './artifact/json/json-shape.js';
export { jsonToolMethods } from './artifact/json/json-tool-methods.js';
export {
  type JsonScanOptions,
  SpooledJsonArtifact,
  type SpooledJsonArtifactOptions,
} from './artifact/json/spooled-json-artifact.js';
export type { ArtifactKind } from './artifact/kinds/artifact-kind.js';
export { ArtifactKinds } from './artifact/kinds/artifact-kinds.js';
export { defaultArtifactKinds } from './artifact/kinds/built-in-kinds.js';
export { type SniffSample, sniffBytes } from './artifact/kinds/sniff-sample.js';
export { markdownToolMethods } from './artifact/markdown/markdown-tool-methods.js';
export type {
  CodeBlockQueryOptions,
  DefinitionSeeds,
  DepthQueryOptions,
  MarkdownCodeBlock,
  MarkdownDefinition,
  MarkdownFrontmatter,
  MarkdownHeading,
  MarkdownLink,
  MarkdownOutline,
  MarkdownSection,
  MarkdownSectionText,
  MarkdownTable,
  MarkdownWindowSpan,
  SpooledMarkdownArtifactOptions,
} from './artifact/markdown/markdown-types.js';
export { SpooledMarkdownArtifact } from './artifact/markdown/spooled-markdown-artifact.js';
export {
  Media,
  type MediaFromFileOptions,
  type MediaOptions,
  sniffMediaType,
} from './artifact/media.js';
export { type SpoolOptions, type SpoolSource, spool } from './artifact/spool.js';
export {
  type QueryOptions,
  SpooledArtifact,
  type SpooledArtifactOptions,
} from './artifact/spooled-artifact.js';
export { approximateTokens, type TokenEncoding } from './artifact/tokens/approximate-tokens.js';
export {
  defaultExactUpTo,
  type EstimateTokensOptions,
  estimateTokens,
  type TokenEstimate,
} from './artifact/tokens/estimate-tokens.js';
export {
  countTextTokens,
  loadTokenizer,
  type Tokenizer,
} from './artifact/tokens/load-tokenizer.js';
export { type CompactLogOptions, compactLog } from './context/compact-log.js';
export {
  type CompactOptions,
  type CompactResult,
  compact,
} from './context/compaction.js';
export { type ContextBudgetOptions, contextBudget } from './context/context-budget.js';
export {
  ConversationLog,
  type ConversationLogOptions,
} from './context/conversation-log.js';
export type { ConversationLogBackend, LoggedEvent } from './context/conversation-log-backend.js';
export type {
  CompactionRecord,
  ConversationEvent,
  ConversationMessage,
  ConversationToolCall,
  Summariser,
} from './context/conversation-message.js';
export {
  JsonlConversationLogBackend,
  type JsonlConversationLogOptions,
} from './context/jsonl-conversation-log-backend.js';
export { MemoryConversationLogBackend } from './context/memory-conversation-log-backend.js';
export {
  defaultToolOutputLimits,
  messageView,
  type ToolOutputLimits,
  toolOutputRef,
} from './context/message-view.js';
export { type PairToolCallsOptions, pairToolCalls } from './context/pair-tool-calls.js';
export {
  type ContextProjection,
  type ProjectContextOptions,
  projectContext,
} from './context/project-context.js';
export {
  type CompactionLimits,
  shouldCompact,
  type TokenUsage,
} from './context/should-compact.js';
export {
  type ConversationSummary,
  parseSummaryReply,
  summaryMessage,
} from './context/summary-reply.js';
export { type SummaryRequestOptions, summaryRequest } from './context/summary-request.js';
export { toolOutputCacheTools } from './context/tool-output-cache-tools.js';
export {
  type ArtifactReference,
  type ToolEvent,
  type UiToolEvent,
  type UiToolEventsOptions,
  uiToolEvents,
} from './context/ui-tool-events.js';
export { type HandleOptions, renderHandle } from './executor/render-handle.js';
export {
  type ExecuteOptions,
  executeToolCall,
  type ToolCallRequest,
} from './executor/tool-executor.js';
export {
  type ContentPart,
  contentText,
  type ToolCallOutcome,
  type ToolCallResults,
} from './executor/tool-result-content.js';
export { ToolSession, type ToolSessionOptions } from './executor/tool-session.js';
export {
  defaultInlineThreshold,
  type WrapOptions,
  type WrappedValue,
  wrapResult,
  wrapValue,
} from './executor/wrap-result.js';
export { compileMatcher, type PatternOptions } from './grep/compile-matcher.js';
export { type GrepScanOptions, type GrepScanResult, grepScan } from './grep/grep-scan.js';
export type { GrepSink } from './grep/grep-sink.js';
export {
  BytesLineMatcher,
  CaseFoldingBytesLineMatcher,
  type LineMatcher,
} from './grep/line-matcher.js';
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
  type ArtifactHandler,
  type ArtifactHandlerOptions,
  createArtifactHandler,
} from './serve/artifact-handler.js';
export { formatBytes } from './shared/format-bytes.js';
export {
  abortError,
  SpoolforgeError,
  type SpoolforgeErrorCode,
  throwIfAborted,
} from './shared/spoolforge-error.js';
export { FileSpoolReader } from './spool/file-spool-reader.js';
export { HttpSpoolReader } from './spool/http/http-spool-reader.js';
export type { HttpSpoolReaderOptions } from './spool/http/http-spool-reader-options.js';
export { redactUrl } from './spool/http/redact-url.js';
export { type LineBlocksOptions, lineBlocks } from './spool/line-blocks.js';
export {
  type LineCheckpoint,
  LineIndex,
  type LineIndexOptions,
  type LineIndexSnapshot,
  type LineIndexSnapshotView,
} from './spool/line-index.js';
export { MemorySpoolReader } from './spool/memory-spool-reader.js';
export { countNewlines } from './spool/newlines.js';
export { openReader } from './spool/open-reader.js';
export {
  buildLineIndexInParallel,
  type ParallelIndexOptions,
} from './spool/parallel-line-index.js';
export { type ByteRange, fileParts, lineAlignedRanges } from './spool/parallel-ranges.js';
export { type ReaderChunksOptions, readerChunks } from './spool/reader-chunks.js';
export { type SeekLineOptions, seekLine } from './spool/seek-line.js';
export type { ReaderDescriptor, ReadOptions, SpoolReader } from './spool/spool-reader.js';
export { SpoolWriter, type SpoolWriterOptions } from './spool/spool-writer.js';
export { type TailOffsetOptions, tailOffset } from './spool/tail-offset.js';
export { defaultThreadCount } from './spool/thread-count.js';
export { isArtifactId } from './store/artifact-id.js';
export { ArtifactStore } from './store/artifact-store.js';
export type {
  ArtifactStoreOptions,
  GcOptions,
  GcReport,
  PutOptions,
  StoredArtifactRecord,
} from './store/artifact-store-types.js';
export { type ArtifactTool, artifactTool, isArtifactTool } from './tools/artifact-tool.js';
export { DispatchContext } from './tools/dispatch-context.js';
export {
  type CollisionPolicy,
  defineTool,
  type HandlerDispatch,
  type Tool,
  type ToolHandlerContext,
} from './tools/tool.js';
export { ToolCall } from './tools/tool-call.js';
export { ToolRegistry } from './tools/tool-registry.js';
