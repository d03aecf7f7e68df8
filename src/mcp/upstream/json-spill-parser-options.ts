import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { SpoolforgeError } from '../../shared/spoolforge-error.js';
import type { SpoolWriterOptions } from '../../spool/spool-writer.js';
import type { SpilledValues } from './spilled-values.js';

/**
 * Options for a {@link JsonSpillParser}.
 *
 * @example
 * ```ts
 * const options: JsonSpillParserOptions = { spilled, onmessage: (message) => console.log(message) };
 * ```
 */
export interface JsonSpillParserOptions {
  /** Where diverted values go; the tokens in emitted messages are its. */
  spilled: SpilledValues;
  /** Receives each message, once the bytes it diverted are written. */
  onmessage: (message: JSONRPCMessage) => void;
  /** Receives each skipped line (`E_MCP_MALFORMED`, `E_MCP_RESULT_TOO_LARGE`, `E_MCP_UPSTREAM`). */
  onerror?: (error: SpoolforgeError) => void;
  /** A string value (or `result.structuredContent`) with more raw bytes is diverted. Default 1 MiB. */
  spillBytes?: number;
  /** A longer message is dropped while read and answered with an error. Default 1 GiB. */
  maxMessageBytes?: number;
  /**
   * A message whose skeleton (all but its diverted values: many small parts, say) passes this
   * is dropped and answered with an error, as `JSON.parse` would hold it whole, several times
   * over. Default 64 MiB.
   */
  maxSkeletonBytes?: number;
  /**
   * The spools of one message keep at most this much in memory together (each up to its own
   * `memoryThreshold`); the rest go straight to temp files. Default 32 MiB.
   */
  spillMemoryBytes?: number;
  /** Options of the spools diverted values go to. */
  writer?: SpoolWriterOptions;
}
