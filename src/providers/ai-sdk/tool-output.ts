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
 * (and string form) is exactly what the model is shown: the SDK records a `tool-error` and sends
 * that text back as the tool result, and the loop goes on.
 *
 * @example
 * ```ts
 * const [outcome] = await session.run([request], dispatch);
 * return toToolOutput(outcome!, 'native');
 * ```
 */
export function toToolOutput(outcome: ToolCallOutcome, media: MediaResults): SpoolforgeToolOutput {
  if (outcome.isError) {
    const error = new SpoolforgeError(
      outcome.call.error?.code ?? 'E_TOOL_FAILED',
      contentText(outcome.content),
      { cause: outcome.call.error },
    );
    // AI SDK 7 shows the model `String(error)`, AI SDK 6 `error.message`: both read the text
    // the session wrote, without a "SpoolforgeError: " in front.
    Object.defineProperty(error, 'toString', { value: () => error.message });
    throw error;
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
 * The AI SDK major a tool set runs under: it decides how media parts are spelled. AI SDK 7
 * spells them `{ type: 'file', data: { type: 'data', data } }` (and warns on the older
 * spellings); AI SDK 6 knows only `image-data` / `file-data`.
 */
export type AiSdkMajor = 6 | 7;

/**
 * A {@link SpoolforgeToolOutput} as the AI SDK sends it to the model (a tool's `toModelOutput`):
 * text alone, or text followed by native file parts (images included) in the spelling of the
 * AI SDK `major` (default 7).
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
export function toToolModelOutput(
  output: SpoolforgeToolOutput,
  options: { major?: AiSdkMajor } = {},
): ToolResultOutput {
  if (output.media.length === 0) return { type: 'text', value: output.text };
  const toPart = options.major === 6 ? toLegacyMediaPart : toFilePart;
  return {
    type: 'content',
    value: [{ type: 'text', text: output.text }, ...output.media.map(toPart)],
  };
}

type ContentPartOutput = Extract<ToolResultOutput, { type: 'content' }>['value'][number];

function toFilePart(media: SpoolforgeMediaOutput): ContentPartOutput {
  return {
    type: 'file',
    mediaType: media.mediaType,
    data: { type: 'data', data: media.data },
    ...(media.name === undefined ? {} : { filename: media.name }),
  };
}

function toLegacyMediaPart(media: SpoolforgeMediaOutput): ContentPartOutput {
  if (media.mediaType.startsWith('image/'))
    return { type: 'image-data', data: media.data, mediaType: media.mediaType };
  return {
    type: 'file-data',
    data: media.data,
    mediaType: media.mediaType,
    ...(media.name === undefined ? {} : { filename: media.name }),
  };
}
