import { z } from 'zod';
import {
  listToolDescription,
  listToolName,
  strictToolInput,
} from '../../artifact/forge/forge-tools.js';
import type { ArtifactKinds } from '../../artifact/kinds/artifact-kinds.js';
import type { Tool } from '../../tools/tool.js';

/**
 * What a framework that fixes its tools before the first model call (the AI SDK, the OpenAI
 * Agents SDK) needs to declare one: its name, description and input schema. The handler stays
 * with the session.
 */
export type ToolDeclaration = Pick<Tool, 'name' | 'description' | 'inputSchema'>;

const callIdUntilForged = z
  .string()
  .describe('The call id of a spooled tool output (artifact_list shows them).');

/**
 * Every tool the given kinds forge, declared up front, for frameworks that can narrow the tools
 * declared at the start per model call (the AI SDK's `activeTools`, the Agents SDK's
 * `isEnabled`) but never add one. The schemas here carry `callId` as a plain string; within a
 * model call each tool's schema is the one its dispatch forged, with the `callId` enum.
 *
 * @example
 * ```ts
 * forgedToolDeclarations(defaultArtifactKinds).map((tool) => tool.name);
 * // ['artifact_read', 'artifact_grep', …, 'artifact_list']
 * ```
 */
export function forgedToolDeclarations(kinds: ArtifactKinds): ToolDeclaration[] {
  const declarations = new Map<string, ToolDeclaration>();
  for (const kind of kinds.list()) {
    for (const method of kind.toolMethods) {
      declarations.set(method.name, {
        name: method.name,
        description: method.description,
        inputSchema: strictToolInput({ callId: callIdUntilForged, ...method.args }),
      });
    }
  }
  declarations.set(listToolName, {
    name: listToolName,
    description: listToolDescription,
    inputSchema: strictToolInput({}),
  });
  return [...declarations.values()];
}
