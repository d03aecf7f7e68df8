import { SpoolforgeError } from '../shared/spoolforge-error.js';
import type { ConversationLogBackend } from './conversation-log-backend.js';
import type { ConversationEvent } from './conversation-message.js';

/**
 * Options for {@link readConversationPage}.
 */
export interface ConversationPageOptions {
  /** Where the previous page ended; from the end of the conversation when omitted. */
  cursor?: string;
  /** Events per page. Default 50. */
  limit?: number;
  signal?: AbortSignal;
}

/**
 * A page of scrollback: events newest first, and the cursor of the page before them.
 */
export interface ConversationPage {
  events: ConversationEvent[];
  /** `undefined` at the start of the conversation. */
  cursor: string | undefined;
}

/**
 * Up to `limit` events of `backend` before `cursor`, newest first, and the cursor of the page
 * before them (`undefined` at the start of the conversation).
 *
 * @throws SpoolforgeError `E_INVALID_ARGUMENT` for a `limit` below 1 or not an integer, and
 *   what the backend throws.
 *
 * @example
 * ```ts
 * const { events, cursor } = await readConversationPage(backend, { limit: 20 });
 * ```
 */
export async function readConversationPage(
  backend: ConversationLogBackend,
  options: ConversationPageOptions = {},
): Promise<ConversationPage> {
  const limit = options.limit ?? 50;
  if (!(Number.isInteger(limit) && limit >= 1)) {
    throw new SpoolforgeError('E_INVALID_ARGUMENT', `limit must be 1 or more: ${limit}`);
  }
  const events: ConversationEvent[] = [];
  let cursor: string | undefined;
  const { limit: _, ...readOptions } = options;
  // One event past the page tells whether there is a page before it.
  for await (const logged of backend.readBackward(readOptions)) {
    if (events.length === limit) return { events, cursor };
    events.push(logged.event);
    cursor = logged.cursor;
  }
  return { events, cursor: undefined };
}
