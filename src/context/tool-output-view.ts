import { continueWith } from '../artifact/forge/model-lines.js';
import { formatBytes } from '../shared/format-bytes.js';
import type { ConversationMessage } from './conversation-message.js';

type ToolMessage = Extract<ConversationMessage, { role: 'tool' }>;

/**
 * How much of a tool message a projection shows.
 *
 * @example
 * ```ts
 * const limits: ToolOutputLimits = { maxLineLength: 500, maxMessageBytes: 16 * 1024 };
 * ```
 */
export interface ToolOutputLimits {
  /** Characters a line keeps; the rest is cut with a note. Default 2,000. */
  maxLineLength?: number;
  /** UTF-8 bytes a message keeps in all. Default 50 KiB. */
  maxMessageBytes?: number;
}

/** Defaults of {@link ToolOutputLimits}. */
export const defaultToolOutputLimits = {
  maxLineLength: 2_000,
  maxMessageBytes: 50 * 1024,
} as const;

/** Room kept under `maxMessageBytes` for the closing note. */
const noteReserve = 256;

/**
 * The name a model passes to `tool_output_cache` for a tool message: its store id, else its
 * call id.
 *
 * @example
 * ```ts
 * toolOutputRef({ role: 'tool', toolCallId: 'call_1', toolName: 'run_build', content: '…', ref: 'a1b2' }); // 'a1b2'
 * ```
 */
export function toolOutputRef(message: ToolMessage): string {
  return message.ref ?? message.toolCallId;
}

/**
 * A tool message as the model sees it in a projection: each line cut to `maxLineLength`, the
 * whole to `maxMessageBytes`, and where it was cut, a note with the call that reads the rest.
 * Unchanged (the same object) when it fits.
 *
 * @example
 * ```ts
 * const shown = toolOutputView(message, { maxMessageBytes: 8 * 1024 });
 * ```
 */
export function toolOutputView(message: ToolMessage, limits: ToolOutputLimits = {}): ToolMessage {
  const maxLineLength = limits.maxLineLength ?? defaultToolOutputLimits.maxLineLength;
  const maxBytes = limits.maxMessageBytes ?? defaultToolOutputLimits.maxMessageBytes;
  const { content } = message;
  const fits = Buffer.byteLength(content) <= maxBytes;
  if (fits && !content.split('\n').some((line) => line.length > maxLineLength)) return message;
  const ref = toolOutputRef(message);
  const shown: string[] = [];
  let bytes = 0;
  let cutLines = 0;
  const lines = content.split('\n');
  for (const [index, line] of lines.entries()) {
    const kept =
      line.length > maxLineLength
        ? `${line.slice(0, maxLineLength)}… [line cut: ${maxLineLength} of ${line.length} chars]`
        : line;
    if (line.length > maxLineLength) cutLines++;
    const size = Buffer.byteLength(kept) + 1;
    if (bytes + size > maxBytes - noteReserve) {
      const rest = continueWith('tool_output_cache', { ref, offset: index + 1 });
      shown.push(
        `[tool output cut at ${formatBytes(maxBytes)}: lines 1–${index} of ${lines.length} ` +
          `(${formatBytes(Buffer.byteLength(content))}) shown; the rest: ${rest}]`,
      );
      return { ...message, content: shown.join('\n') };
    }
    shown.push(kept);
    bytes += size;
  }
  const whole = continueWith('tool_output_cache', { ref, offset: 1 });
  shown.push(`[${cutLines} long line${cutLines === 1 ? '' : 's'} cut; whole lines: ${whole}]`);
  return { ...message, content: shown.join('\n') };
}
