export {
  fromGeminiCalls,
  type GeminiCallRequest,
  type GeminiCalls,
  type GeminiCallsOptions,
} from './from-gemini-calls.js';
export { usageOfGeminiResponse } from './gemini-usage.js';
export {
  type GoogleDispatch,
  GoogleToolSession,
  type GoogleToolSessionOptions,
} from './google-tool-session.js';
export {
  type GeminiFunctionResponsesOptions,
  type GeminiMediaPlacement,
  toGeminiFunctionResponses,
} from './to-gemini-function-responses.js';
export { toGeminiSchema } from './to-gemini-schema.js';
export {
  type GeminiSchemaDialect,
  type GeminiToolsOptions,
  toGeminiTools,
} from './to-gemini-tools.js';
