export {
  fromChatCompletionsMessage,
  toChatCompletionsMessages,
} from './chat-completions-messages.js';
export { toChatCompletionsToolMessages } from './chat-completions-tool-messages.js';
export { fromChatCompletionsToolCalls, toChatCompletionsTools } from './chat-completions-tools.js';
export {
  type OpenAIFunctionDefinition,
  type ToolSource,
  toFunctionDefinitions,
} from './function-definition.js';
export { chatCompletionsFormat, responsesFormat } from './message-formats.js';
export { type OpenAISummariserOptions, openAISummariser } from './openai-summariser.js';
export {
  type ChatCompletionsDispatch,
  type OpenAIDispatch,
  OpenAIToolSession,
  type OpenAIToolSessionOptions,
  type ResponsesDispatch,
} from './openai-tool-session.js';
export { usageOfChatCompletion, usageOfResponse } from './openai-usage.js';
export { fromResponsesOutputItems, toResponsesInput } from './responses-input.js';
export {
  type ResponsesFunctionCallOutput,
  toResponsesToolOutputs,
} from './responses-tool-outputs.js';
export { fromResponsesOutput, toResponsesTools } from './responses-tools.js';
