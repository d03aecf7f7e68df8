import { continueWith, cutLine } from '../artifact/forge/model-lines.js';
import { formatBytes } from '../shared/format-bytes.js';
import { SpoolforgeError } from '../shared/spoolforge-error.js';
import type { ConversationMessage } from './conversation-message.js';

type ToolMessage = Extract<ConversationMessage, { role: 'tool' }>;

/**
 * How much of a message a projection shows: every tool message is held to these limits, a user
 * or assistant message once it is over `maxMessageBytes`.
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
 * const view = messageView(message, { ...defaultToolOutputLimits, maxLineLength: 500 });
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

/**
 * `limits` with their defaults filled in, checked.
 *
 * @throws SpoolforgeError `E_INVALID_ARGUMENT` for a `maxLineLength` under 1 or a
 *   `maxMessageBytes` under 1,024.
 * @example
 * ```ts
 * const { maxBytes } = resolveLimits({ maxMessageBytes: 16 * 1024 });
 * ```
 */
export function resolveLimits(limits: ToolOutputLimits): {
  maxLineLength: number;
  maxBytes: number;
} {
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
 * A message as the model sees it in a projection. A tool message: each line cut to
 * `maxLineLength`, the whole to `maxMessageBytes`. A user or assistant message (a huge paste)
 * is cut the same way only when it is over `maxMessageBytes`. Where it was cut, a note names
 * the `tool_output_cache` call that reads on from the first line not shown: in the stored text
 * when the message has a `ref`, else, for a tool message, in its recorded text; a user or
 * assistant message without a `ref` says the rest is not stored. Unchanged (the same object)
 * when it fits.
 *
 * @example
 * ```ts
 * const shown = messageView(message, { maxMessageBytes: 8 * 1024 });
 * ```
 */
export function messageView<Message extends ConversationMessage>(
  message: Message,
  limits: ToolOutputLimits = {},
): Message {
  const { maxLineLength, maxBytes } = resolveLimits(limits);
  const { content } = message;
  const bytes = Buffer.byteLength(content);
  const tool = message.role === 'tool';
  if (!tool && bytes <= maxBytes) return message;
  const lines = content.split('\n');
  const longLines = lines.filter((line) => line.length > maxLineLength).length;
  if (bytes <= maxBytes && longLines === 0) return message;
  const what = tool ? 'tool output' : 'message';
  const shown: string[] = [];
  let shownBytes = 0;
  for (const [index, line] of lines.entries()) {
    const kept = cutLine(line, maxLineLength);
    const size = Buffer.byteLength(kept) + 1;
    if (shownBytes + size > maxBytes - noteReserve) {
      const ref = message.ref ?? (tool ? message.toolCallId : undefined);
      const rest =
        ref === undefined
          ? 'the rest is not stored'
          : `read on with ${continueWith('tool_output_cache', { ref, offset: index + 1 })}`;
      const from = index === 0 ? 'its first line is longer than that' : `lines 1–${index} shown`;
      shown.push(
        `[${what} cut at ${formatBytes(maxBytes)} of ${formatBytes(bytes)}` +
          ` (${lines.length} lines): ${from}; ${rest}]`,
      );
      return { ...message, content: shown.join('\n') };
    }
    shown.push(kept);
    shownBytes += size;
  }
  shown.push(`[${longLines} line${longLines === 1 ? '' : 's'} cut to ${maxLineLength} characters]`);
  return { ...message, content: shown.join('\n') };
}
