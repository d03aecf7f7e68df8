import {
  continueWith,
  cutLine,
  defaultResultLimits,
  type ResultLimits,
} from '../artifact/forge/model-lines.js';
import { formatBytes } from '../shared/format-bytes.js';
import { SpoolforgeError } from '../shared/spoolforge-error.js';
import type { ConversationMessage } from './conversation-message.js';

type ToolMessage = Extract<ConversationMessage, { role: 'tool' }>;

/** Room kept under `maxResultBytes` for the closing note. */
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
 * `limits` with their defaults filled in, checked: a message is held to at least 1 KiB, so its
 * closing note always fits.
 *
 * @throws SpoolforgeError `E_INVALID_ARGUMENT` for a `maxLineChars` under 1 or a
 *   `maxResultBytes` under 1,024.
 * @example
 * ```ts
 * const { maxResultBytes } = resolveLimits({ maxResultBytes: 16 * 1024 });
 * ```
 */
export function resolveLimits(limits: ResultLimits): Required<ResultLimits> {
  const maxLineChars = limits.maxLineChars ?? defaultResultLimits.maxLineChars;
  const maxResultBytes = limits.maxResultBytes ?? defaultResultLimits.maxResultBytes;
  if (!(Number.isInteger(maxLineChars) && maxLineChars >= 1)) {
    throw new SpoolforgeError('E_INVALID_ARGUMENT', `maxLineChars must be ≥ 1: ${maxLineChars}`);
  }
  if (!(Number.isInteger(maxResultBytes) && maxResultBytes >= 1024)) {
    throw new SpoolforgeError(
      'E_INVALID_ARGUMENT',
      `maxResultBytes must be ≥ 1024: ${maxResultBytes}`,
    );
  }
  return { maxLineChars, maxResultBytes };
}

/**
 * A message as the model sees it in a projection, held to the {@link ResultLimits} of every
 * model-facing result. A tool message: each line cut to `maxLineChars`, the whole to
 * `maxResultBytes`. A user or assistant message (a huge paste) is cut the same way only when it
 * is over `maxResultBytes`. Where it was cut, a note names
 * the `tool_output_cache` call that reads on from the first line not shown: in the stored text
 * when the message has a `ref`, else, for a tool message, in its recorded text; a user or
 * assistant message without a `ref` says the rest is not stored. Unchanged (the same object)
 * when it fits.
 *
 * @example
 * ```ts
 * const shown = messageView(message, { maxResultBytes: 8 * 1024 });
 * ```
 */
export function messageView<Message extends ConversationMessage>(
  message: Message,
  limits: ResultLimits = {},
): Message {
  const { maxLineChars, maxResultBytes: maxBytes } = resolveLimits(limits);
  const { content } = message;
  const bytes = Buffer.byteLength(content);
  const tool = message.role === 'tool';
  if (!tool && bytes <= maxBytes) return message;
  const lines = content.split('\n');
  const longLines = lines.filter((line) => line.length > maxLineChars).length;
  if (bytes <= maxBytes && longLines === 0) return message;
  const what = tool ? 'tool output' : 'message';
  const shown: string[] = [];
  let shownBytes = 0;
  for (const [index, line] of lines.entries()) {
    const kept = cutLine(line, maxLineChars);
    const size = Buffer.byteLength(kept) + 1;
    if (shownBytes + size > maxBytes - noteReserve) {
      const ref = message.ref ?? (tool ? message.toolCallId : undefined);
      const rest =
        ref === undefined
          ? 'the rest is not stored'
          : `read on with ${continueWith('tool_output_cache', { ref, start: index + 1 })}`;
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
  shown.push(`[${longLines} line${longLines === 1 ? '' : 's'} cut to ${maxLineChars} characters]`);
  return { ...message, content: shown.join('\n') };
}
