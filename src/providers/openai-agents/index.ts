export {
  type SpoolforgeAgentTools,
  type SpoolforgeAgentToolsOptions,
  spoolforgeAgentTools,
} from './spoolforge-agent-tools.js';
export {
  type SpoolforgeFunctionOutput,
  toSpoolforgeFunctionOutput,
} from './spoolforge-function-output.js';
export type { SpoolforgeFunctionTool } from './to-function-tool.js';
