import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { exportNames } from './helpers/export-names.js';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The run-time export names of `specifier`, sorted, as a fresh Node process imports it. */
function runTimeExports(specifier: string): string[] {
  return exportNames(specifier, 'import').sort();
}

// Each list is the whole public surface of its entry: adding, removing or moving an export
// changes a list here, so every change of the API is a decision made in review.
describe('the export lists of the built package', () => {
  it('spoolforge: what an agent builder uses', () => {
    expect(runTimeExports('spoolforge')).toEqual([
      'ArtifactKinds',
      'ArtifactStore',
      'ConversationLog',
      'ConversationPool',
      'DerivedOutput',
      'DispatchContext',
      'FileSpoolReader',
      'HttpSpoolReader',
      'JsonlConversationLogBackend',
      'Media',
      'MemoryConversationLogBackend',
      'MemorySpoolReader',
      'ProviderToolSession',
      'SpoolWriter',
      'SpooledArtifact',
      'SpooledJsonArtifact',
      'SpooledMarkdownArtifact',
      'SpoolforgeError',
      'ToolCall',
      'ToolEventQueue',
      'ToolRegistry',
      'ToolSession',
      'artifactArgument',
      'baseToolMethods',
      'compact',
      'compactLog',
      'contentText',
      'contextBudget',
      'createArtifactHandler',
      'createLinkSigner',
      'defaultArtifactKinds',
      'defaultMaxReferenceBytes',
      'defineTool',
      'hasUiParts',
      'keepDerived',
      'opToolMethod',
      'openReader',
      'pairToolCalls',
      'parseSummaryReply',
      'projectContext',
      'releaseCompactedOutputs',
      'shouldCompact',
      'spool',
      'streamToolEvents',
      'summaryMessage',
      'summaryRequest',
      'toolOutputCacheTools',
      'totalTokens',
      'uiToolEvents',
      'withUiParts',
      'wrapResult',
      'wrapValue',
    ]);
  });

  it('spoolforge/engine: the pieces the package is built from', () => {
    expect(runTimeExports('spoolforge/engine')).toEqual([
      'BoundedText',
      'BytesLineMatcher',
      'CaseFoldingBytesLineMatcher',
      'JsonShape',
      'LineIndex',
      'RegexLineMatcher',
      'RegexWorkerPool',
      'abortError',
      'approximateTokens',
      'artifactJson',
      'artifactMd',
      'artifactTool',
      'buildLineIndexInParallel',
      'compileMatcher',
      'continueWith',
      'countNewlines',
      'countTextTokens',
      'cutLine',
      'decodeUtf8',
      'defaultExactUpTo',
      'defaultInlineThreshold',
      'defaultResultLimits',
      'defaultThreadCount',
      'estimateTokens',
      'executeToolCall',
      'fileParts',
      'findJsonSyntaxError',
      'forgeArtifactTools',
      'formatBytes',
      'formatShapeField',
      'fromModelLine',
      'fromModelRange',
      'grepScan',
      'isArtifactId',
      'isArtifactTool',
      'lineAlignedRanges',
      'lineBlocks',
      'listToolName',
      'loadTokenizer',
      'messageView',
      'parallelGrepCount',
      'parallelGrepScan',
      'patternRegex',
      'readerChunks',
      'redactUrl',
      'regexWorkerPool',
      'renderHandle',
      'resolveArtifactReferences',
      'seekLine',
      'sniffBytes',
      'sniffMediaType',
      'streamGrep',
      'tailOffset',
      'throwIfAborted',
      'toModelLine',
      'toolOutputRef',
    ]);
  });

  it('spoolforge/openai', () => {
    expect(runTimeExports('spoolforge/openai')).toEqual([
      'OpenAIToolSession',
      'chatCompletionsFormat',
      'fromChatCompletionsMessage',
      'fromChatCompletionsToolCalls',
      'fromResponsesOutput',
      'fromResponsesOutputItems',
      'openAISummariser',
      'responsesFormat',
      'toChatCompletionsMessages',
      'toChatCompletionsToolMessages',
      'toChatCompletionsTools',
      'toFunctionDefinitions',
      'toResponsesInput',
      'toResponsesToolOutputs',
      'toResponsesTools',
      'usageOfChatCompletion',
      'usageOfResponse',
    ]);
  });

  it('spoolforge/anthropic', () => {
    expect(runTimeExports('spoolforge/anthropic')).toEqual([
      'AnthropicToolSession',
      'anthropicMessagesFormat',
      'anthropicSummariser',
      'defaultMaxImageBytes',
      'fromAnthropicContent',
      'fromAnthropicMessage',
      'toAnthropicMessages',
      'toAnthropicToolResults',
      'toAnthropicTools',
      'usageOfAnthropicMessage',
    ]);
  });

  it('spoolforge/ai-sdk', () => {
    expect(runTimeExports('spoolforge/ai-sdk')).toEqual([
      'aiSdkToolDeclarations',
      'modelMessagesFormat',
      'spoolforgeToolSet',
      'toModelMessages',
      'toToolModelOutput',
    ]);
  });

  it('spoolforge/openai-agents', () => {
    expect(runTimeExports('spoolforge/openai-agents')).toEqual([
      'spoolforgeAgentTools',
      'toSpoolforgeFunctionOutput',
    ]);
  });

  it('spoolforge/google', () => {
    expect(runTimeExports('spoolforge/google')).toEqual([
      'GoogleToolSession',
      'fromGeminiCalls',
      'toGeminiFunctionResponses',
      'toGeminiSchema',
      'toGeminiTools',
      'usageOfGeminiResponse',
    ]);
  });

  it('spoolforge/mcp', () => {
    expect(runTimeExports('spoolforge/mcp')).toEqual([
      'McpSpoolProxy',
      'SpilledValues',
      'StdioUpstreamTransport',
      'createFileServer',
      'listenStreamableHttp',
      'mcpTools',
    ]);
  });

  it('spoolforge/postgres', () => {
    expect(runTimeExports('spoolforge/postgres')).toEqual(['PostgresConversationLogBackend']);
  });

  it('only spoolforge/postgres loads pg, an optional peer dependency', () => {
    const loadsPg = (specifier: string) => {
      const check = `import(${JSON.stringify(specifier)}).then(() => console.log(Object.keys(require.cache).some((path) => /[\\/]node_modules[\\/]pg[\\/]/.test(path))))`;
      const result = spawnSync(process.execPath, ['-e', check], { cwd: root, encoding: 'utf8' });
      expect(result.stderr).toBe('');
      return result.stdout.trim();
    };
    expect(loadsPg('spoolforge')).toBe('false');
    expect(loadsPg('spoolforge/engine')).toBe('false');
    expect(loadsPg('spoolforge/postgres')).toBe('true');
  });

  it('spoolforge/s3', () => {
    expect(runTimeExports('spoolforge/s3')).toEqual(['openS3ArtifactStore']);
  });

  it('no run-time value is exported by both spoolforge and spoolforge/engine', () => {
    const engine = new Set(runTimeExports('spoolforge/engine'));
    expect(runTimeExports('spoolforge').filter((name) => engine.has(name))).toEqual([]);
  });
});
