/**
 * The package entry, `spoolforge`: what an agent builder uses — spooling, artifacts and their
 * readers, the tool session, the store and its HTTP handler, the conversation log with its
 * projection and compaction. The engine pieces these are built from (line index, byte scans,
 * grep matchers, forging, tokenizers…) are `spoolforge/engine` (src/engine.ts). Every run-time
 * export is pinned by spec/package-exports.spec.ts: a new one is a decision.
 *
 * @packageDocumentation
 */

// Artifact: spooling, the artifact classes and Media.
export type { ArtifactLine } from './artifact/artifact-line.js';
export { DerivedOutput, keepDerived } from './artifact/derived-output.js';
export { baseToolMethods } from './artifact/forge/base-tool-methods.js';
export type { ForgeOptions } from './artifact/forge/forge-tools.js';
export type { ResultLimits } from './artifact/forge/model-lines.js';
export { opToolMethod, type ToolOperation } from './artifact/forge/op-tool-method.js';
export type {
  ToolMethodContext,
  ToolMethodDescriptor,
} from './artifact/forge/tool-method-descriptor.js';
export type { GrepLine, GrepOptions, GrepResult, GrepTarget } from './artifact/grep-artifact.js';
export type {
  EntryRange,
  JsonCounts,
  JsonDocument,
  JsonEntry,
} from './artifact/json/json-document.js';
export type { JsonMatch } from './artifact/json/json-path-query.js';
export type { JsonType } from './artifact/json/json-scan-types.js';
export type { JsonShape, ShapeField } from './artifact/json/json-shape.js';
export {
  type JsonScanOptions,
  SpooledJsonArtifact,
  type SpooledJsonArtifactOptions,
} from './artifact/json/spooled-json-artifact.js';
export type { ArtifactKind } from './artifact/kinds/artifact-kind.js';
export { ArtifactKinds } from './artifact/kinds/artifact-kinds.js';
export { defaultArtifactKinds } from './artifact/kinds/built-in-kinds.js';
export type { SniffSample } from './artifact/kinds/sniff-sample.js';
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
export { Media, type MediaFromFileOptions, type MediaOptions } from './artifact/media.js';
export { artifactArgument } from './artifact/references/artifact-argument.js';
export type { OutputReference } from './artifact/references/artifact-reference.js';
export {
  defaultMaxReferenceBytes,
  type ReferenceScope,
} from './artifact/references/resolve-references.js';
export { type SpoolOptions, type SpoolSource, spool } from './artifact/spool.js';
export {
  type QueryOptions,
  SpooledArtifact,
  type SpooledArtifactOptions,
} from './artifact/spooled-artifact.js';
export type { TokenEncoding } from './artifact/tokens/approximate-tokens.js';
export type { TokenEstimate } from './artifact/tokens/estimate-tokens.js';
// Context: the conversation log and its backends, the budgeted projection, compaction.
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
  ConversationPool,
  type ConversationPoolOptions,
  type ConversationPoolStats,
} from './context/conversation-pool.js';
export {
  JsonlConversationLogBackend,
  type JsonlConversationLogOptions,
} from './context/jsonl-conversation-log-backend.js';
export { MemoryConversationLogBackend } from './context/memory-conversation-log-backend.js';
export type {
  MessageFormat,
  ModelCallContext,
  ModelCallInput,
  ModelCallRecord,
  StoredModelCall,
} from './context/model-call.js';
export type { ModelCalls } from './context/model-calls.js';
export { type PairToolCallsOptions, pairToolCalls } from './context/pair-tool-calls.js';
export {
  type ContextProjection,
  type ProjectContextOptions,
  projectContext,
} from './context/project-context.js';
export { releaseCompactedOutputs } from './context/release-compacted-outputs.js';
export type {
  ConversationOpenOptions,
  PooledConversation,
} from './context/revive-conversation.js';
export {
  type CompactionLimits,
  shouldCompact,
  type TokenUsage,
  totalTokens,
} from './context/should-compact.js';
export {
  type StreamToolEventsOptions,
  streamToolEvents,
} from './context/stream-tool-events.js';
export {
  type ConversationSummary,
  parseSummaryReply,
  summaryMessage,
} from './context/summary-reply.js';
export { type SummaryRequestOptions, summaryRequest } from './context/summary-request.js';
export { toolOutputCacheTools } from './context/tool-output-cache-tools.js';
export {
  type ArtifactReference,
  type MediaReference,
  type ToolEvent,
  type UiToolEvent,
  type UiToolEventsOptions,
  uiToolEvents,
} from './context/ui-tool-events.js';
export type { KeepHandle } from './context/working-set.js';

// Executor: the provider-neutral agent loop and what a tool's return value becomes.
export type { HandleOptions } from './executor/render-handle.js';
export type { ToolEventListener } from './executor/tool-event.js';
export { ToolEventQueue, type ToolEventQueueOptions } from './executor/tool-event-queue.js';
export type { ExecuteOptions, ToolCallRequest } from './executor/tool-executor.js';
export {
  type ContentPart,
  contentText,
  type ToolCallOutcome,
  type ToolCallResults,
} from './executor/tool-result-content.js';
export { ToolSession, type ToolSessionOptions } from './executor/tool-session.js';
export {
  type WrapOptions,
  type WrappedValue,
  wrapResult,
  wrapValue,
} from './executor/wrap-result.js';
export type { PatternOptions } from './grep/compile-matcher.js';
// Providers: the core every adapter is built on, for an adapter of another SDK.
export type { ProviderCodec } from './providers/core/provider-codec.js';
export type { ProviderDispatch } from './providers/core/provider-dispatch.js';
export {
  ProviderToolSession,
  type ProviderToolSessionOptions,
} from './providers/core/provider-tool-session.js';
// Serve: a store over HTTP.
export {
  type ArtifactHandler,
  type ArtifactHandlerOptions,
  createArtifactHandler,
} from './serve/artifact-handler.js';
export {
  createLinkSigner,
  type LinkSigner,
  type LinkSignerOptions,
  type LinkSignOptions,
  type LinkVerification,
} from './serve/link-signer.js';
export type {
  ArtifactAuthorizer,
  ArtifactRequestTarget,
  SignedLinksOptions,
} from './serve/request-gate.js';
// Errors.
export {
  SpoolforgeError,
  type SpoolforgeErrorCode,
} from './shared/spoolforge-error.js';
// Spool: the readers users construct, the writer of a growing artifact, reopening a descriptor.
export { FileSpoolReader, type FileSpoolReaderOptions } from './spool/file-spool-reader.js';
export { HttpSpoolReader } from './spool/http/http-spool-reader.js';
export type { HttpSpoolReaderOptions } from './spool/http/http-spool-reader-options.js';
export { MemorySpoolReader } from './spool/memory-spool-reader.js';
export { openReader } from './spool/open-reader.js';
export type { ReaderDescriptor, ReadOptions, SpoolReader } from './spool/spool-reader.js';
export { SpoolWriter, type SpoolWriterOptions } from './spool/spool-writer.js';
// Store: persistent artifacts.
export { ArtifactStore } from './store/artifact-store.js';
export type {
  ArtifactStoreOptions,
  GcOptions,
  GcReport,
  PutOptions,
  StoredArtifactRecord,
} from './store/artifact-store-types.js';
// Tools: the generic tool primitives.
export { DispatchContext } from './tools/dispatch-context.js';
export {
  type CollisionPolicy,
  defineTool,
  type HandlerDispatch,
  type Tool,
  type ToolHandlerContext,
  type ToolProgress,
} from './tools/tool.js';
export { ToolCall } from './tools/tool-call.js';
export { ToolRegistry } from './tools/tool-registry.js';
export {
  hasUiParts,
  type ToolTelemetry,
  type ToolUiParts,
  type ToolUiPartsInit,
  type WithUiParts,
  withUiParts,
} from './tools/ui-parts.js';
