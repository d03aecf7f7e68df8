import { z } from 'zod';
import { baseToolMethods, readToolName } from '../artifact/forge/base-tool-methods.js';
import { strictToolInput } from '../artifact/forge/forge-tools.js';
import { continueWith, type ResultLimits } from '../artifact/forge/model-lines.js';
import type { ToolMethodDescriptor } from '../artifact/forge/tool-method-descriptor.js';
import { readMedia } from '../artifact/media.js';
import { spool } from '../artifact/spool.js';
import type { SpooledArtifact } from '../artifact/spooled-artifact.js';
import { SpoolforgeError } from '../shared/spoolforge-error.js';
import { isArtifactId } from '../store/artifact-id.js';
import { type ArtifactTool, artifactTool } from '../tools/artifact-tool.js';
import { defineTool } from '../tools/tool.js';
import type { ConversationLog } from './conversation-log.js';

const refArgument = z
  .string()
  .min(1)
  .describe('The ref of a tool output, as in "[tool output trimmed; ref=…]" or a tool call id.');

function method(name: string): ToolMethodDescriptor<SpooledArtifact> {
  const found = baseToolMethods.find((descriptor) => descriptor.name === name);
  if (!found) {
    throw new SpoolforgeError(
      'E_UNKNOWN_TOOL',
      `No base tool method named '${name}': the tool_output_cache tools are built on it`,
    );
  }
  return found;
}

/** The cache tools' own names, and `ref` for `callId`, in continuation notes. */
function continuation(toolName: string, { callId: ref, ...args }: Record<string, unknown>): string {
  const name = toolName === readToolName ? 'tool_output_cache' : 'tool_output_cache_grep';
  return continueWith(name, { ref, ...args });
}

/**
 * `tool_output_cache {ref, start?, end?, last?}` and `tool_output_cache_grep {ref, pattern, …}`,
 * shaped like `artifact_read` and `artifact_grep`: numbered lines of a tool output the conversation recorded, including outputs a projection
 * trimmed. A ref is a store id: the full output, readable across restarts and compactions until
 * it expires; or the call id of a tool message in the log's working set: its stored output, else
 * the text recorded for it. Results are bounded like the `artifact_*` tools' and name the call
 * that continues them; like theirs, they are shown inline, never spooled again. A stored image
 * or PDF is read back as `Media` (the model sees it again); grep refuses it.
 *
 * @example
 * ```ts
 * const session = new ToolSession({ tools: [runBuild, ...toolOutputCacheTools(log)], store });
 * ```
 */
export function toolOutputCacheTools(
  log: ConversationLog,
  options: { limits?: ResultLimits } = {},
): ArtifactTool<never>[] {
  const limits = options.limits ?? {};
  const run = async (
    descriptor: ToolMethodDescriptor<SpooledArtifact>,
    ref: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
  ) => {
    const artifact = await openOutput(log, ref, signal);
    try {
      // An image or PDF goes back to the model as media, as when its tool returned it.
      const media = await readMedia(artifact, { signal });
      if (media !== undefined && descriptor.name === readToolName) return media;
      if (media !== undefined) {
        throw new SpoolforgeError(
          'E_INVALID_TOOL_ARGS',
          `The output ${JSON.stringify(ref)} is ${media.mediaType} (${media.byteLength} bytes), not text: read it with tool_output_cache to see it.`,
        );
      }
      return await descriptor.run(artifact, args as never, {
        callId: ref,
        limits,
        signal,
        continuation,
      });
    } finally {
      await artifact.close();
    }
  };
  const read = method(readToolName);
  const grep = method('artifact_grep');
  const cache = defineTool({
    name: 'tool_output_cache',
    description:
      'Lines START..END (1-based, inclusive) or the last N of an earlier tool output by its ref, ' +
      'for outputs shown as "[tool output trimmed; ref=…]" or cut short; with neither, the first lines.',
    inputSchema: strictToolInput({ ref: refArgument, ...read.args }),
    handler: ({ ref, ...args }, { signal }) => run(read, ref, args, signal),
  });
  const cacheGrep = defineTool({
    name: 'tool_output_cache_grep',
    description:
      'Search an earlier tool output by its ref, like `grep -n`: matches are `N:line`, context ' +
      'lines `N-line`. Use it for outputs shown as "[tool output trimmed; ref=…]" or cut short.',
    inputSchema: strictToolInput({ ref: refArgument, ...grep.args }),
    handler: ({ ref, ...args }, { signal }) => run(grep, ref, args, signal),
  });
  return [artifactTool(cache), artifactTool(cacheGrep)] as ArtifactTool<never>[];
}

async function openOutput(
  log: ConversationLog,
  ref: string,
  signal: AbortSignal,
): Promise<SpooledArtifact> {
  const stored = await openStored(log, ref, signal);
  if (stored) return stored;
  // A call id: its stored output when there is one, else the text recorded for it.
  const message = log.toolMessage(ref);
  if (message?.ref !== undefined) {
    const output = await openStored(log, message.ref, signal);
    if (output) return output;
    throw new SpoolforgeError(
      'E_ARTIFACT_NOT_FOUND',
      `The output of call ${JSON.stringify(ref)} (ref=${message.ref}) is no longer stored: it expired or was deleted.`,
    );
  }
  if (message) return spool(message.content, { signal });
  throw new SpoolforgeError(
    'E_ARTIFACT_NOT_FOUND',
    `No tool output with ref ${JSON.stringify(ref)}: a ref is a stored output's id, as shown in ` +
      '"[tool output trimmed; ref=…]" and in summaries, or the call id of a recent tool result. ' +
      'A stored output that expired is gone.',
  );
}

async function openStored(
  log: ConversationLog,
  ref: string,
  signal: AbortSignal,
): Promise<SpooledArtifact | undefined> {
  if (!log.store || !isArtifactId(ref)) return undefined;
  return log.store.get(ref, { signal }).catch((error: unknown) => {
    if (SpoolforgeError.isInstance(error) && error.code === 'E_ARTIFACT_NOT_FOUND')
      return undefined;
    throw error;
  });
}
