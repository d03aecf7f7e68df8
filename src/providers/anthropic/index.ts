export { fromAnthropicMessage, toAnthropicMessages } from './anthropic-messages.js';
export { anthropicMessagesFormat } from './anthropic-messages-format.js';
export {
  type AnthropicSummariserOptions,
  anthropicSummariser,
} from './anthropic-summariser.js';
export {
  type AnthropicDispatch,
  AnthropicToolSession,
  type AnthropicToolSessionOptions,
} from './anthropic-tool-session.js';
export { usageOfAnthropicMessage } from './anthropic-usage.js';
export { type AnthropicContent, fromAnthropicContent } from './from-anthropic-content.js';
export {
  type AnthropicToolResultsOptions,
  defaultMaxImageBytes,
  toAnthropicToolResults,
} from './to-anthropic-tool-results.js';
export { toAnthropicTools } from './to-anthropic-tools.js';
