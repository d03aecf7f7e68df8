import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { SpoolforgeError } from '../../shared/spoolforge-error.js';
import type { LineOutcome } from './delivery-queue.js';
import { failedResponse } from './failed-response.js';

/** How much of a bad line an error quotes. */
export const quoteChars = 200;

/**
 * The outcome of a message past `maxMessageBytes` (or, with `skeleton`, whose skeleton passed
 * `maxSkeletonBytes`): a JSON-RPC error for the request it answers (code -32603, internal
 * error: the proxy failed, not the request, which may be retried asking for less), or
 * `E_MCP_RESULT_TOO_LARGE` for a message that answers nothing.
 *
 * @example
 * ```ts
 * const outcome = overflowOutcome({ id: 7, hasMethod: false, bytes: 2e9, limit: 1 << 30 });
 * ```
 */
export function overflowOutcome(line: {
  id: string | number | undefined;
  hasMethod: boolean;
  bytes: number;
  limit: number;
  skeleton?: boolean;
}): LineOutcome {
  const text = line.skeleton
    ? `upstream result of ${line.bytes} bytes has more than ${line.limit} bytes outside its large values, too many to parse at once`
    : `upstream result of ${line.bytes} bytes exceeds the limit of ${line.limit} bytes (--max-result)`;
  if (line.id !== undefined && !line.hasMethod) {
    return { message: { jsonrpc: '2.0', id: line.id, error: { code: -32603, message: text } } };
  }
  return { error: new SpoolforgeError('E_MCP_RESULT_TOO_LARGE', `An ${text}; dropped`) };
}

/**
 * Why a line is no longer kept, the first reason found: its size past `limit` (the message's, or
 * with `skeleton` its skeleton's), not a message (with what failed, if known), or its values
 * could not be spooled (`failure`).
 */
export type DroppedLine =
  | { overflow: { limit: number; skeleton?: boolean } }
  | { invalid: unknown }
  | { failure: SpoolforgeError };

/**
 * What a dropped line comes to: a response whose values could not be spooled answers its
 * request with the `failure` (anything else reports it), an overflow is {@link overflowOutcome},
 * anything else `E_MCP_MALFORMED`.
 *
 * @example
 * ```ts
 * const line = { id: 7, hasMethod: false, head: '{"jsonrpc":"2.0","id":7', bytes: 2e9 };
 * const outcome = droppedLineOutcome({ overflow: { limit: 1 << 30 } }, line);
 * ```
 */
export function droppedLineOutcome(
  dropped: DroppedLine,
  line: { id: string | number | undefined; hasMethod: boolean; head: string; bytes: number },
): LineOutcome {
  const { id, hasMethod } = line;
  if ('failure' in dropped) {
    const { failure } = dropped;
    return id !== undefined && !hasMethod
      ? { message: failedResponse(id, failure) }
      : { error: failure };
  }
  if ('overflow' in dropped) return overflowOutcome({ ...line, ...dropped.overflow });
  return { error: malformedLine(line.head, dropped.invalid) };
}

/**
 * `E_MCP_MALFORMED` for a skipped line, quoting at most 200 characters of its start.
 *
 * @example
 * ```ts
 * const error = malformedLine('Server v1 starting', new SyntaxError('Unexpected token'));
 * ```
 */
export function malformedLine(head: string, cause: unknown): SpoolforgeError {
  const reason = cause instanceof Error ? `${cause.message.split('\n')[0]}: ` : '';
  return new SpoolforgeError(
    'E_MCP_MALFORMED',
    `Skipped a line from the upstream that is not a JSON-RPC message (${reason}${quoted(head)})`,
    { cause },
  );
}

/**
 * `E_MCP_UPSTREAM` for a message the end of the output cut off.
 *
 * @example
 * ```ts
 * const error = tornMessage('{"jsonrpc":"2.0","id":3,"res', 120_000);
 * ```
 */
export function tornMessage(head: string, bytes: number): SpoolforgeError {
  return new SpoolforgeError(
    'E_MCP_UPSTREAM',
    `The upstream closed its output in the middle of a message (${bytes} bytes dropped): ${quoted(head)}`,
  );
}

/**
 * `E_MCP_MALFORMED` for a message the upstream left unfinished while a request timed out.
 *
 * @example
 * ```ts
 * const error = abandonedMessage('{"jsonrpc":"2.0","id":3,"res', 120_000);
 * ```
 */
export function abandonedMessage(head: string, bytes: number): SpoolforgeError {
  return new SpoolforgeError(
    'E_MCP_MALFORMED',
    `Dropped a message the upstream left unfinished while a request timed out (${bytes} bytes), so that the next line starts afresh: ${quoted(head)}`,
  );
}

function quoted(text: string): string {
  return JSON.stringify(text.length > quoteChars ? `${text.slice(0, quoteChars)}…` : text);
}

/**
 * What a whole line's skeleton is: a JSON-RPC message carrying the tokens of the values spilled
 * from it, or a malformed line (its spills released with it).
 *
 * @example
 * ```ts
 * const line = '{"jsonrpc":"2.0","id":1,"result":{}}';
 * const outcome = skeletonOutcome(line, line, []); // { message: { jsonrpc: '2.0', id: 1, result: {} }, tokens: [] }
 * ```
 */
export function skeletonOutcome(head: string, text: string, tokens: string[]): LineOutcome {
  try {
    return { message: JSONRPCMessageSchema.parse(JSON.parse(text)), tokens };
  } catch (error) {
    return { error: malformedLine(head, error), tokens };
  }
}
