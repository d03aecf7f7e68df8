import type {
  JSONRPCMessage,
  JSONRPCResponse,
  RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { quoteInput } from '../../shared/quote-input.js';
import type { SpoolforgeError } from '../../shared/spoolforge-error.js';

/**
 * The JSON-RPC error that answers request `id` in place of a response the proxy could not keep
 * (code -32603, internal error: the proxy failed, not the request): `E_IO: Cannot spool … (ENOSPC: …)`,
 * the code and every cause's message, so the model and the person read the real reason.
 *
 * @example
 * ```ts
 * const response = failedResponse(7, new SpoolforgeError('E_IO', 'Cannot spool a value from the upstream'));
 * ```
 */
export function failedResponse(id: RequestId, error: SpoolforgeError): JSONRPCMessage {
  const causes: string[] = [];
  for (let cause = error.cause; cause instanceof Error; cause = cause.cause) {
    causes.push(cause.message);
  }
  const why = causes.length > 0 ? ` (${causes.join(': ')})` : '';
  const message = `${error.code}: ${error.message}${why}; the response to this request was dropped`;
  return { jsonrpc: '2.0', id, error: { code: -32603, message: quoteInput(message, 2_000) } };
}

/** Whether `message` answers a request (a result or an error), not a request or notification. */
export function isResponse(
  message: JSONRPCMessage,
): message is JSONRPCResponse & { id: RequestId } {
  return 'id' in message && message.id !== undefined && !('method' in message);
}
