import { continueWith, cutLine } from '../artifact/forge/model-lines.js';
import { formatBytes } from '../shared/format-bytes.js';
import { SpoolforgeError } from '../shared/spoolforge-error.js';
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
  /** UTF-8 bytes a message keeps in all (at least 1 KiB). Default 50 KiB. */
  maxMessageBytes?: number;
}

/**
 * Defaults of {@link ToolOutputLimits}.
 *
 * @example
 * ```ts
 * const view = toolOutputView(message, { ...defaultToolOutputLimits, maxLineLength: 500 });
 * ```
 */
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

function checkLimits(limits: ToolOutputLimits) {
  const maxLineLength = limits.maxLineLength ?? defaultToolOutputLimits.maxLineLength;
  const maxBytes = limits.maxMessageBytes ?? defaultToolOutputLimits.maxMessageBytes;
  if (!(Number.isInteger(maxLineLength) && maxLineLength >= 1)) {
    throw new SpoolforgeError('E_INVALID_ARGUMENT', `maxLineLength must be ≥ 1: ${maxLineLength}`);
  }
  if (!(Number.isInteger(maxBytes) && maxBytes >= 1024)) {
    throw new SpoolforgeError('E_INVALID_ARGUMENT', `maxMessageBytes must be ≥ 1024: ${maxBytes}`);
  }
  return { maxLineLength, maxBytes };
}

/**
 * A tool message as the model sees it in a projection: each line cut to `maxLineLength`, the
 * whole to `maxMessageBytes`, and where it was cut, a note with the call that reads the rest
 * (the stored output when the message has a `ref`, else the recorded text from the next line).
 * Unchanged (the same object) when it fits.
 *
 * @example
 * ```ts
 * const shown = toolOutputView(message, { maxMessageBytes: 8 * 1024 });
 * ```
 */
export function toolOutputView(message: ToolMessage, limits: ToolOutputLimits = {}): ToolMessage {
  const { maxLineLength, maxBytes } = checkLimits(limits);
  const { content } = message;
  const lines = content.split('\n');
  const longLines = lines.filter((line) => line.length > maxLineLength).length;
  if (Buffer.byteLength(content) <= maxBytes && longLines === 0) return message;
  const shown: string[] = [];
  let bytes = 0;
  for (const [index, line] of lines.entries()) {
    const kept = cutLine(line, maxLineLength);
    const size = Buffer.byteLength(kept) + 1;
    if (bytes + size > maxBytes - noteReserve) {
      const rest =
        message.ref === undefined
          ? continueWith('tool_output_cache', { ref: message.toolCallId, offset: index + 1 })
          : continueWith('tool_output_cache', { ref: message.ref });
      const from = index === 0 ? 'its first line is longer than that' : `lines 1–${index} shown`;
      shown.push(
        `[tool output cut at ${formatBytes(maxBytes)} of ${formatBytes(Buffer.byteLength(content))}` +
          ` (${lines.length} lines): ${from}; read on with ${rest}]`,
      );
      return { ...message, content: shown.join('\n') };
    }
    shown.push(kept);
    bytes += size;
  }
  shown.push(`[${longLines} line${longLines === 1 ? '' : 's'} cut to ${maxLineLength} characters]`);
  return { ...message, content: shown.join('\n') };
}
