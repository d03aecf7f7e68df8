export {
  type AiSdkToolDeclaration,
  aiSdkToolDeclarations,
} from './ai-sdk-tool-declarations.js';
export { toModelMessages } from './model-messages.js';
export { modelMessagesFormat } from './model-messages-format.js';
export {
  type AiSdkToolSetOptions,
  type NoTools,
  type SpoolforgeToolSet,
  type SpoolforgeToolSetOptions,
  type SpoolforgeTools,
  spoolforgeToolSet,
} from './spoolforge-tool-set.js';
export {
  type AiSdkMajor,
  type MediaResults,
  type SpoolforgeMediaOutput,
  type SpoolforgeToolOutput,
  toToolModelOutput,
} from './tool-output.js';
