import { z } from 'zod';
import {
  listToolDescription,
  listToolName,
  strictToolInput,
} from '../../artifact/forge/forge-tools.js';
import type { ArtifactKinds } from '../../artifact/kinds/artifact-kinds.js';
import type { Tool } from '../../tools/tool.js';

/**
 * What the AI SDK needs to declare a tool before any step: its name, description and input
 * schema. The handler stays with the session.
 */
export type ToolDeclaration = Pick<Tool, 'name' | 'description' | 'inputSchema'>;

const callIdUntilForged = z
  .string()
  .describe('The call id of a spooled tool output (artifact_list shows them).');

/**
 * Every tool the given kinds forge, declared up front: the AI SDK only lets a step
 * narrow the tools declared at the start (`activeTools`), never add one. The schemas here
 * carry `callId` as a plain string; within a step each tool's schema is the one the step's
 * dispatch forged, with the `callId` enum.
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
