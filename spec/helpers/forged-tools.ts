import {
  DispatchContext,
  defaultArtifactKinds,
  type ForgeOptions,
  type SpooledArtifact,
  ToolCall,
} from 'spoolforge';
import { forgeArtifactTools } from 'spoolforge/engine';

/**
 * Runs one tool the built-in kinds forge for `context`, as the executor would: the input
 * through the tool's schema, then its handler; the answer as text.
 */
export async function invokeForged(
  context: DispatchContext,
  name: string,
  input: Record<string, unknown>,
  options: ForgeOptions = {},
): Promise<string> {
  const tool = forgeArtifactTools(defaultArtifactKinds, context, options).get(name);
  if (!tool) throw new Error(`${name} was not forged`);
  return String(
    await tool.handler(tool.inputSchema.parse(input), {
      signal: new AbortController().signal,
      toolCallId: 'x',
      dispatch: context,
    }),
  );
}

/**
 * Runs forged tool `name` on `artifact`, spooled as the output of call `call_json` of the turn
 * (`input` gets that `callId` unless it names another).
 */
export function invokeOnArtifact(
  artifact: SpooledArtifact,
  name: string,
  input: Record<string, unknown>,
  options: ForgeOptions = {},
): Promise<string> {
  const call = new ToolCall({ id: 'call_json', name: 'list_rows', arguments: {} });
  call.results = artifact;
  const context = new DispatchContext({ turnToolCalls: [call] });
  return invokeForged(context, name, { callId: 'call_json', ...input }, options);
}
