import { SpoolforgeError } from '../shared/spoolforge-error.js';

const conversationIdPattern = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * Throws `E_INVALID_ARGUMENT` unless `conversationId` is 1–128 letters, digits, `_` or `-`
 * (it names a file or keys rows, so it never needs quoting).
 *
 * @example
 * ```ts
 * checkConversationId('ticket-4812');
 * ```
 */
export function checkConversationId(conversationId: string): void {
  if (!conversationIdPattern.test(conversationId)) {
    throw new SpoolforgeError(
      'E_INVALID_ARGUMENT',
      `conversationId must be 1–128 letters, digits, _ or -: ${JSON.stringify(conversationId)}`,
    );
  }
}
