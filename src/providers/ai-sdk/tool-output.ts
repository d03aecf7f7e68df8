import type { Tool as AiSdkTool } from 'ai';
import type { ContentPart, ToolCallOutcome } from '../../executor/tool-result-content.js';
import { contentText } from '../../executor/tool-result-content.js';
import { SpoolforgeError } from '../../shared/spoolforge-error.js';

/**
 * What the AI SDK records as a spoolforge tool's output (`step.toolResults[i].output`): the
 * text the model reads — inline text, the handle of a spooled output, or an artifact tool's
 * bounded answer — and any media (images, PDFs) as base64, the way the AI SDK carries binary
 * content. Plain JSON, so UI message streams can carry it.
 *
 * @example
 * ```ts
 * const { toolResults } = await generateText({ model, prompt, ...toolSetOptions });
 * const output = toolResults[0]?.output as SpoolforgeToolOutput;
 * console.log(output.text); // 'Output of produce_log (call_1) was spooled, not inlined: …'
 * ```
 */
export interface SpoolforgeToolOutput {
  text: string;
  media: SpoolforgeMediaOutput[];
}

/**
 * A media result inside a {@link SpoolforgeToolOutput}.
 */
export interface SpoolforgeMediaOutput {
  mediaType: string;
  /** The bytes, base64-encoded. */
  data: string;
  name?: string;
}

/**
 * How media results reach the model: `'native'` as AI SDK content parts (`image-data`,
 * `file-data`) that providers turn into native blocks; `'note'` as the executor's one-line
 * description only — for Chat Completions models, whose `tool` messages take text alone (the
 * AI SDK would serialise the base64 into the text).
 *
 * @example
 * ```ts
 * spoolforgeToolSet({ tools: [runTests], mediaResults: 'note' });
 * ```
 */
export type MediaResults = 'native' | 'note';

type ToolResultOutput = Awaited<ReturnType<NonNullable<AiSdkTool['toModelOutput']>>>;

/**
 * An outcome as the output a tool's `execute` returns. A failed call (bad arguments, an unknown
 * `callId`, a handler that threw) is thrown instead, as a {@link SpoolforgeError} whose message
 * is exactly what the model is shown: the SDK records a `tool-error` and sends that message
 * back as the tool result, and the loop goes on.
 *
 * @example
 * ```ts
 * const [outcome] = await session.run([request], dispatch);
 * return toToolOutput(outcome!, 'native');
 * ```
 */
export function toToolOutput(outcome: ToolCallOutcome, media: MediaResults): SpoolforgeToolOutput {
  if (outcome.isError) {
    throw new SpoolforgeError(
      outcome.call.error?.code ?? 'E_TOOL_FAILED',
      contentText(outcome.content),
      { cause: outcome.call.error },
    );
  }
  return {
    text: contentText(outcome.content),
    media: media === 'native' ? outcome.content.flatMap(toMediaOutput) : [],
  };
}

function toMediaOutput(part: ContentPart): SpoolforgeMediaOutput[] {
  if (part.type !== 'media') return [];
  const { media } = part;
  return [
    {
      mediaType: media.mediaType,
      data: media.toBase64(),
      ...(media.name === undefined ? {} : { name: media.name }),
    },
  ];
}

/**
 * A {@link SpoolforgeToolOutput} as the AI SDK sends it to the model (a tool's `toModelOutput`):
 * text alone, or text followed by native image / file parts.
 *
 * @example
 * ```ts
 * const aiSdkTool = {
 *   inputSchema,
 *   execute,
 *   toModelOutput: ({ output }: { output: SpoolforgeToolOutput }) => toToolModelOutput(output),
 * };
 * ```
 */
export function toToolModelOutput(output: SpoolforgeToolOutput): ToolResultOutput {
  if (output.media.length === 0) return { type: 'text', value: output.text };
  return {
    type: 'content',
    value: [
      { type: 'text', text: output.text },
      ...output.media.map((media) =>
        media.mediaType.startsWith('image/')
          ? { type: 'image-data' as const, data: media.data, mediaType: media.mediaType }
          : {
              type: 'file-data' as const,
              data: media.data,
              mediaType: media.mediaType,
              ...(media.name === undefined ? {} : { filename: media.name }),
            },
      ),
    ],
  };
}
