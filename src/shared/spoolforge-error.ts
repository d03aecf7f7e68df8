const brand = Symbol.for('spoolforge.error');

/**
 * The string codes a {@link SpoolforgeError} carries. Branch on `error.code`, never on the message.
 *
 * @example
 * ```ts
 * if (SpoolforgeError.isInstance(error) && error.code === 'E_REGEX_TIMEOUT') retryWithFixedString();
 * ```
 */
export type SpoolforgeErrorCode =
  | 'E_ABORTED'
  | 'E_ARTIFACT_DAMAGED'
  | 'E_ARTIFACT_NOT_FOUND'
  | 'E_ARTIFACT_TOO_LARGE'
  | 'E_BAD_REFERENCE'
  | 'E_BUSY'
  | 'E_COMPACTION_FAILED'
  | 'E_CONFLICT'
  | 'E_DISPATCH_ALREADY_SIGNALLED'
  | 'E_FILE_NOT_FOUND'
  | 'E_INVALID_ARGUMENT'
  | 'E_INVALID_JSON'
  | 'E_INVALID_TOOL_ARGS'
  | 'E_IO'
  | 'E_LINE_TOO_LONG'
  | 'E_LOG_DAMAGED'
  | 'E_MCP_MALFORMED'
  | 'E_MCP_RESULT_TOO_LARGE'
  | 'E_MCP_UPSTREAM'
  | 'E_MISSING_PEER'
  | 'E_NOT_A_FILE'
  | 'E_NOT_REOPENABLE'
  | 'E_PATH_NOT_ALLOWED'
  | 'E_REGEX_INVALID'
  | 'E_REGEX_TIMEOUT'
  | 'E_REMOTE_CHANGED'
  | 'E_REMOTE_FAILED'
  | 'E_REMOTE_FORBIDDEN'
  | 'E_REMOTE_NOT_FOUND'
  | 'E_REMOTE_RANGE_UNSUPPORTED'
  | 'E_SPOOL_CLOSED'
  | 'E_STORE_NOT_LOCAL'
  | 'E_TOOL_ALREADY_REGISTERED'
  | 'E_TOOL_FAILED'
  | 'E_UNKNOWN_TOOL';

/**
 * The one error class spoolforge throws. `code` is stable; `cause` keeps the underlying error.
 * `isInstance` works across duplicated copies of the package (it checks a global symbol brand).
 *
 * @example
 * ```ts
 * try {
 *   await artifact.grep('(a+)+\\b$', { timeout: 1_000 });
 * } catch (error) {
 *   if (SpoolforgeError.isInstance(error)) console.error(error.code, error.message);
 * }
 * ```
 */
export class SpoolforgeError extends Error {
  readonly [brand] = true;
  readonly code: SpoolforgeErrorCode;

  constructor(code: SpoolforgeErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SpoolforgeError';
    this.code = code;
  }

  /** True for any spoolforge error, even one thrown by another copy of the package. */
  static isInstance(value: unknown): value is SpoolforgeError {
    return typeof value === 'object' && value !== null && brand in value && value[brand] === true;
  }
}

/**
 * Throws `E_ABORTED` (with the signal's reason as `cause`) when `signal` has fired.
 *
 * @example
 * ```ts
 * throwIfAborted(signal);
 * ```
 */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortError(signal);
}

/**
 * The error spoolforge throws for an aborted operation.
 *
 * @example
 * ```ts
 * signal.addEventListener('abort', () => reject(abortError(signal)));
 * ```
 */
export function abortError(signal: AbortSignal): SpoolforgeError {
  return new SpoolforgeError('E_ABORTED', 'The operation was aborted', { cause: signal.reason });
}
