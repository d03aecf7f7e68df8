import { type DispatchContext, defaultArtifactKinds, type ForgeOptions } from 'spoolforge';
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
