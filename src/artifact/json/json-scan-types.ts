/**
 * The JSON type names a model sees (`typeof`, with arrays and null told apart).
 *
 * @example
 * ```ts
 * const type: JsonType = Array.isArray(value) ? 'array' : 'object';
 * ```
 */
export type JsonType = 'array' | 'object' | 'string' | 'number' | 'boolean' | 'null';

/**
 * One top-level entry found by {@link JsonStructureScanner}: an element of the root array or a
 * member of the root object, by absolute byte offsets.
 */
export interface JsonEntrySpan {
  index: number;
  /** Where the entry starts: its value in an array, its key's opening quote in an object. */
  start: number;
  /** Where its value starts. */
  valueStart: number;
  /** Where its value ends (exclusive). */
  end: number;
  /** The member name, for an object root. */
  key?: string;
  /** The value's bytes when captured; valid only during the callback. */
  bytes?: Uint8Array;
  /** Set instead of `bytes` when the value passed `maxCaptureBytes`. */
  tooLarge?: boolean;
}

/**
 * A structural error at an absolute byte offset.
 *
 * @example
 * ```ts
 * if (error instanceof JsonScanError) throw await invalidJsonAt(reader, error.offset, error.message);
 * ```
 */
export class JsonScanError extends Error {
  readonly offset: number;
  constructor(offset: number, message: string) {
    super(message);
    this.offset = offset;
  }
}

/**
 * Where a scan starts: at the document's first byte, or at a known entry start of a root
 * already seen (a checkpoint of the entry index, or just after the comma before entry `index`).
 */
export interface JsonScanStart {
  root: 'array' | 'object';
  index: number;
}

/**
 * Options for a {@link JsonStructureScanner}.
 *
 * @example
 * ```ts
 * new JsonStructureScanner({ onEntry: (entry) => void count++, capture: () => false });
 * ```
 */
export interface JsonStructureScannerOptions {
  /** Return `false` to stop the scan. */
  onEntry: (entry: JsonEntrySpan) => boolean | undefined;
  /** Whether to gather entry `index`'s bytes. Default: never. */
  capture?: (index: number) => boolean;
  /** Entries larger than this are reported `tooLarge` instead of gathered. */
  maxCaptureBytes?: number;
  /** Resume inside a root at an entry start instead of at the document's start. */
  resume?: JsonScanStart;
}
