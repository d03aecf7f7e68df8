import type { TokenEncoding } from '../artifact/estimate-tokens.js';
import { collectToolMethods } from '../artifact/forge/forge-tools.js';
import { toModelLine } from '../artifact/forge/model-lines.js';
import type { SpooledArtifact } from '../artifact/spooled-artifact.js';
import { formatBytes } from '../shared/format-bytes.js';
import type { ToolCall } from '../tools/tool-call.js';

/**
 * How much of an artifact its handle previews.
 *
 * @example
 * ```ts
 * const options: HandleOptions = { previewLines: 2, previewLineChars: 80 };
 * ```
 */
export interface HandleOptions {
  /** Lines shown from the start and from the end. Default 3 each. */
  previewLines?: number;
  /** Each preview line is cut to this many characters. Default 100. */
  previewLineChars?: number;
  /** The tokenizer the estimate is given in. Default `o200k_base`. */
  encoding?: TokenEncoding;
  signal?: AbortSignal;
}

const cut = (text: string, width: number) =>
  text.length > width ? `${text.slice(0, width)}…` : text;

/**
 * The short text a model sees instead of a spooled output: call id, kind, size, lines, tokens,
 * the first and last lines (numbered, cut), and the tools that query it with the `callId` to
 * pass — a few hundred tokens whatever the artifact's size.
 *
 * @example
 * ```ts
 * const text = await renderHandle(call, artifact);
 * // 'Output of run_build (call_1) was spooled, not inlined: text, 20.0 MiB, 312,004 lines, …'
 * ```
 */
export async function renderHandle(
  call: ToolCall,
  artifact: SpooledArtifact,
  options: HandleOptions = {},
): Promise<string> {
  const { signal } = options;
  const previewLines = options.previewLines ?? 3;
  const width = options.previewLineChars ?? 100;
  const encoding = options.encoding ?? 'o200k_base';
  const [bytes, lineCount, tokens] = await Promise.all([
    artifact.byteLength(),
    artifact.lineCount(signal ? { signal } : {}),
    artifact.estimateTokens(encoding),
  ]);
  const number = (value: number) => value.toLocaleString('en-US');
  const name = artifact.name ? ` "${artifact.name}"` : '';
  const lines = [
    `Output of ${call.toolName}${name} (${call.id}) was spooled, not inlined: ${artifact.kind}, ` +
      `${formatBytes(bytes)}, ${number(lineCount)} lines, ~${number(tokens)} tokens (${encoding}).`,
  ];
  const show = (from: number, to: number) => artifact.lines(from, to, signal ? { signal } : {});
  if (lineCount <= previewLines * 2) {
    lines.push('Lines:');
    for await (const line of show(0, lineCount))
      lines.push(`${toModelLine(line.lineNumber)}:${cut(line.text, width)}`);
  } else {
    lines.push('First lines:');
    for await (const line of show(0, previewLines))
      lines.push(`${toModelLine(line.lineNumber)}:${cut(line.text, width)}`);
    lines.push('Last lines:');
    for await (const line of show(lineCount - previewLines, lineCount)) {
      lines.push(`${toModelLine(line.lineNumber)}:${cut(line.text, width)}`);
    }
  }
  const tools = collectToolMethods(artifact.constructor as typeof SpooledArtifact).map(
    (method) => method.name,
  );
  lines.push(
    `Query it with ${tools.join(', ')} (callId "${call.id}"); artifact_list shows every output you can query.`,
  );
  return lines.join('\n');
}
