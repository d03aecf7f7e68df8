import { SpoolforgeError } from '../shared/spoolforge-error.js';
import { countNewlines, newline } from './newlines.js';

/**
 * A line number and the byte offset where that line starts.
 */
export interface LineCheckpoint {
  line: number;
  offset: number;
}

/**
 * Options for a {@link LineIndex}.
 *
 * @example
 * ```ts
 * const index = new LineIndex({ stride: 16 * 1024 });
 * ```
 */
export interface LineIndexOptions {
  /** Bytes between checkpoints; a lookup reads at most this many bytes. Default 64 KiB. */
  stride?: number;
}

/**
 * A {@link LineIndex} as plain data, for a msgpack sidecar or a cache file: restoring it with
 * {@link LineIndex.fromSnapshot} answers line lookups without rescanning the bytes it covers.
 *
 * @example
 * ```ts
 * const copy = LineIndex.fromSnapshot(structuredClone(index.snapshot()));
 * ```
 */
export interface LineIndexSnapshot {
  stride: number;
  /** Bytes covered; an index of a prefix extends from here with {@link LineIndex.append}. */
  byteLength: number;
  newlineCount: number;
  endsWithNewline: boolean;
  /** Checkpoint line numbers, ascending, starting with 0. */
  lines: number[];
  /** Checkpoint byte offsets, parallel to `lines`. */
  offsets: number[];
}

/**
 * What {@link LineIndex.fromSnapshot} restores from: a {@link LineIndexSnapshot}, or the same
 * with its checkpoints as `Float64Array`s (views of a binary cache file, taken over uncopied).
 */
export type LineIndexSnapshotView = Omit<LineIndexSnapshot, 'lines' | 'offsets'> & {
  lines: readonly number[] | Float64Array;
  offsets: readonly number[] | Float64Array;
};

/**
 * Sparse checkpoints (line number → byte offset) built incrementally as bytes are appended.
 * With the default 64 KiB stride it costs 256 KiB per GiB of text; `lineCount` is O(1) and
 * the start of any line is at most one stride's read away from a checkpoint.
 *
 * @example
 * ```ts
 * const index = new LineIndex();
 * index.append(new TextEncoder().encode('a\nb\nc'));
 * index.lineCount; // 3
 * index.checkpointFor(2); // { line: 0, offset: 0 }: read forward from there
 * ```
 */
export class LineIndex {
  static readonly defaultStride = 64 * 1024;
  readonly stride: number;
  // Growable float64 arrays (the first `#checkpointCount` entries are used): restoring a cached
  // index is one copy, not a number at a time.
  #lines: Float64Array<ArrayBufferLike> = new Float64Array(64);
  #offsets: Float64Array<ArrayBufferLike> = new Float64Array(64);
  #checkpointCount = 1;
  #byteLength = 0;
  #newlineCount = 0;
  #endsWithNewline = false;

  constructor(options: LineIndexOptions = {}) {
    this.stride = options.stride ?? LineIndex.defaultStride;
  }

  /** Bytes seen so far. */
  get byteLength(): number {
    return this.#byteLength;
  }

  /** Lines as every query counts them: a final line without `\n` is still a line. */
  get lineCount(): number {
    const unterminated = this.#byteLength > 0 && !this.#endsWithNewline ? 1 : 0;
    return this.#newlineCount + unterminated;
  }

  /** How many checkpoints the index holds (its memory is about 16 bytes each). */
  get checkpointCount(): number {
    return this.#checkpointCount;
  }

  /**
   * Rebuilds an index from {@link LineIndex.snapshot}'s data, checking it is well formed (a
   * corrupt cache or sidecar gives `E_INVALID_ARGUMENT`, never wrong line numbers). Arrays are
   * copied; `Float64Array`s are taken over, so the caller must not change them afterwards.
   */
  static fromSnapshot(snapshot: LineIndexSnapshotView): LineIndex {
    const { stride, byteLength, newlineCount, endsWithNewline, lines, offsets } = snapshot;
    const wellFormed =
      Number.isSafeInteger(stride) &&
      stride > 0 &&
      Number.isSafeInteger(byteLength) &&
      Number.isSafeInteger(newlineCount) &&
      typeof endsWithNewline === 'boolean' &&
      isNumberList(lines) &&
      isNumberList(offsets) &&
      lines.length > 0 &&
      lines.length === offsets.length &&
      lines[0] === 0 &&
      offsets[0] === 0 &&
      ascending(lines, newlineCount) &&
      ascending(offsets, byteLength);
    if (!wellFormed) {
      throw new SpoolforgeError('E_INVALID_ARGUMENT', 'Not a well-formed line index snapshot');
    }
    const index = new LineIndex({ stride });
    // Float64Arrays are taken over: a cache file's views become the index without a copy.
    const adopt = (values: ArrayLike<number>) =>
      values instanceof Float64Array ? values : Float64Array.from(values);
    index.#lines = adopt(lines);
    index.#offsets = adopt(offsets);
    index.#checkpointCount = lines.length;
    index.#byteLength = byteLength;
    index.#newlineCount = newlineCount;
    index.#endsWithNewline = endsWithNewline;
    return index;
  }

  /** The index as plain data (copies of its arrays), to persist and restore later. */
  snapshot(): LineIndexSnapshot {
    return {
      stride: this.stride,
      byteLength: this.#byteLength,
      newlineCount: this.#newlineCount,
      endsWithNewline: this.#endsWithNewline,
      lines: Array.from(this.#lines.subarray(0, this.#checkpointCount)),
      offsets: Array.from(this.#offsets.subarray(0, this.#checkpointCount)),
    };
  }

  /** Feeds the next bytes of the spool, in order. */
  append(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    const base = this.#byteLength;
    let nextCheckpoint = (this.#offsets[this.#checkpointCount - 1] ?? 0) + this.stride;
    let count = this.#newlineCount;
    let position = 0;
    // Between checkpoints only the count matters: bulk-counted; then the first line starting at
    // or past the next checkpoint's offset is found and recorded.
    while (position < chunk.length) {
      const from = Math.max(position, Math.min(chunk.length, nextCheckpoint - base - 1));
      count += countNewlines(chunk, position, from);
      const found = chunk.indexOf(newline, from);
      if (found === -1) break;
      count++;
      position = found + 1;
      this.#addCheckpoint(count, base + position);
      nextCheckpoint = base + position + this.stride;
    }
    this.#newlineCount = count;
    this.#byteLength = base + chunk.length;
    this.#endsWithNewline = chunk[chunk.length - 1] === newline;
  }

  /** The last checkpoint at or before `line`: the start of a forward read for that line. */
  checkpointFor(line: number): LineCheckpoint {
    const lines = this.#lines;
    let low = 0;
    let high = this.#checkpointCount - 1;
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if ((lines[middle] ?? 0) <= line) low = middle;
      else high = middle - 1;
    }
    return { line: lines[low] ?? 0, offset: this.#offsets[low] ?? 0 };
  }

  #addCheckpoint(line: number, offset: number): void {
    if (this.#checkpointCount === this.#lines.length) {
      const grow = (values: Float64Array) => {
        const grown = new Float64Array(values.length * 2);
        grown.set(values);
        return grown;
      };
      this.#lines = grow(this.#lines);
      this.#offsets = grow(this.#offsets);
    }
    this.#lines[this.#checkpointCount] = line;
    this.#offsets[this.#checkpointCount] = offset;
    this.#checkpointCount++;
  }
}

function isNumberList(values: unknown): values is ArrayLike<number> {
  return Array.isArray(values) || values instanceof Float64Array;
}

/** Strictly ascending integers from 0, none past `limit` (a safe integer, so all are safe). */
function ascending(values: ArrayLike<unknown>, limit: number): boolean {
  let previous = -1;
  for (let position = 0; position < values.length; position++) {
    const value = values[position];
    // One comparison chain, no call per element: a cached index has 130 k of them.
    if (typeof value !== 'number' || !(value > previous && value <= limit)) return false;
    if (Math.floor(value) !== value) return false;
    previous = value;
  }
  return true;
}
