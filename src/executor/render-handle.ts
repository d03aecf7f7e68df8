import { listToolName } from '../artifact/forge/forge-tools.js';
import { headChars, toModelLine } from '../artifact/forge/model-lines.js';
import type { ArtifactKinds } from '../artifact/kinds/artifact-kinds.js';
import { defaultArtifactKinds } from '../artifact/kinds/built-in-kinds.js';
import { type LinePreview, linePreviews } from '../artifact/line-previews.js';
import type { SpooledArtifact } from '../artifact/spooled-artifact.js';
import type { TokenEncoding } from '../artifact/tokens/approximate-tokens.js';
import { countTextTokens } from '../artifact/tokens/load-tokenizer.js';
import { formatBytes } from '../shared/format-bytes.js';
import type { ToolCall } from '../tools/tool-call.js';

/**
 * How much of an artifact its handle previews, and the most it may cost.
 */
export interface HandleOptions {
  /** Lines shown from the start and from the end. Default 3 each. */
  previewLines?: number;
  /** Each preview line is cut to this many characters. Default 100. */
  previewLineChars?: number;
  /** The handle is trimmed (narrower, then fewer preview lines) until it costs at most this. Default 300. */
  maxTokens?: number;
  /** The tokenizer for the estimate and the budget. Default `o200k_base`. */
  encoding?: TokenEncoding;
  /** The kinds whose tool methods the handle names. Default `defaultArtifactKinds`. */
  kinds?: ArtifactKinds;
  signal?: AbortSignal;
}

const number = (value: number) => value.toLocaleString('en-US');

/**
 * The short text a model sees instead of a spooled output: call id, kind, size, lines, tokens,
 * the first and last lines (numbered, cut), and the tools that query it with the `callId` to
 * pass — at most `maxTokens` (300) whatever the artifact's size or its lines.
 *
 * @example
 * ```ts
 * const text = await renderHandle(call, artifact);
 * // 'Output of run_build (call_1) was spooled, not inlined: text, 20.0 MiB, 312,004 lines, …'
 * ```
 */
export async function renderHandle(
  call: Pick<ToolCall, 'id' | 'name'>,
  artifact: SpooledArtifact,
  options: HandleOptions = {},
): Promise<string> {
  const { signal } = options;
  const query = signal ? { signal } : {};
  const encoding = options.encoding ?? 'o200k_base';
  const [bytes, lineCount, estimate] = await Promise.all([
    artifact.byteLength(),
    artifact.lineCount(query),
    artifact.tokenEstimate(encoding, query),
  ]);
  const name = artifact.name ? ` "${artifact.name}"` : '';
  const header =
    `Output of ${call.name}${name} (${call.id}) was spooled, not inlined: ${artifact.kind}, ` +
    `${formatBytes(bytes)}, ${number(lineCount)} line${lineCount === 1 ? '' : 's'}, ` +
    `${estimate.method === 'exact' ? '' : '~'}${number(estimate.tokens)} tokens (${encoding}).`;
  const kinds = options.kinds ?? defaultArtifactKinds;
  const tools = kinds.toolMethodsOf(artifact).map((method) => method.name);
  const footer =
    `Query it with ${tools.join(', ')} (callId "${call.id}"); ${listToolName} shows every output you can query.\n` +
    `Pass it to a tool as the argument value {"$artifact":"${call.id}"} (add "lines", "json" or "grep" to pass part).`;
  const previewLines = options.previewLines ?? 3;
  const width = options.previewLineChars ?? 100;
  // The first and last lines, each read no further than the widest preview: a 50 MB minified
  // document is one line, and outputs with fewer lines than the preview are the most common.
  const headEnd = Math.min(previewLines, lineCount);
  const preview = async (start: number, end: number) => {
    const lines: LinePreview[] = [];
    for await (const line of linePreviews(artifact, start, end, {
      maxLineBytes: width * 4,
      ...query,
    }))
      lines.push(line);
    return lines;
  };
  const head = await preview(0, headEnd);
  const tail = await preview(Math.max(headEnd, lineCount - previewLines), lineCount);
  const compose = (shown: number, chars: number) => {
    const first = head.slice(0, shown);
    const last = tail
      .slice(Math.max(0, tail.length - shown))
      .filter((line) => line.lineNumber >= shown);
    const gap = (last[0]?.lineNumber ?? 0) > first.length ? ['…'] : [];
    const show = (line: LinePreview) =>
      `${toModelLine(line.lineNumber)}:${line.cut || line.text.length > chars ? `${headChars(line.text, chars)}…` : line.text}`;
    const lines = [...first.map(show), ...gap, ...last.map(show)];
    return [
      header,
      ...(lines.length ? ['Preview (first and last lines):', ...lines] : []),
      footer,
    ].join('\n');
  };
  const maxTokens = options.maxTokens ?? 300;
  // Narrower lines first, then fewer: some logs spend a token every two characters.
  for (const [shown, chars] of [
    [previewLines, width],
    [previewLines, Math.min(width, 60)],
    [Math.min(previewLines, 2), Math.min(width, 40)],
    [Math.min(previewLines, 1), Math.min(width, 40)],
  ] as const) {
    const text = compose(shown, chars);
    if ((await countTextTokens(text, encoding)) <= maxTokens) return text;
  }
  return compose(0, 0);
}
