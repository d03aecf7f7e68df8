import { grepReadOptions } from './grep-scan.js';

/** A record's header: selected flag (1 byte), line number (float64), length (uint32). */
const headerBytes = 13;
/** Batches are posted at about this size: large enough to make messages rare. */
export const batchBytes = 256 * 1024;
/**
 * A `plain` batch's buffer: a batch, then a whole block's text (a scan hands over a block's
 * printed lines at once, and the worker posts between blocks), so it is reused, not grown.
 * Records come line by line, in buffers of a batch.
 */
const plainBufferBytes = batchBytes + grepReadOptions.recycledChunkSize + 1;

/**
 * Collects the lines a part scan prints as compact binary records, to cross from a worker
 * thread to the main thread in batches (transferred, not copied). Each line is copied once,
 * out of the read buffer the scan will recycle.
 *
 * @example
 * ```ts
 * const writer = new GrepRecordWriter();
 * writer.add(Buffer.from('ERROR disk full'), 41, true);
 * const batch = writer.take(); // post it, then read it with readGrepRecords
 * ```
 */
export class GrepRecordWriter {
  readonly #plain: boolean;
  readonly #bufferBytes: number;
  #buffer: Buffer;
  #length = 0;
  #recordCount = 0;
  /** Batches the reader sent back once written: reused, so output allocates nothing. */
  readonly #spare: ArrayBuffer[] = [];

  /**
   * `plain`: each record is the line and a `\n`, no header: the batch is the output itself,
   * for a {@link GrepSink.text} sink.
   */
  constructor(options: { plain?: boolean } = {}) {
    this.#plain = options.plain ?? false;
    this.#bufferBytes = this.#plain ? plainBufferBytes : batchBytes;
    this.#buffer = Buffer.allocUnsafeSlow(this.#bufferBytes);
  }

  /** Bytes collected since the last {@link take}. */
  get size(): number {
    return this.#length;
  }

  /** Records collected since the last {@link take}. */
  get recordCount(): number {
    return this.#recordCount;
  }

  add(bytes: Uint8Array, lineNumber: number, selected: boolean): void {
    this.#recordCount++;
    const needed = this.#length + (this.#plain ? 1 : headerBytes) + bytes.length;
    if (needed > this.#buffer.length) {
      const grown = Buffer.allocUnsafeSlow(Math.max(needed, this.#buffer.length * 2));
      this.#buffer.copy(grown, 0, 0, this.#length);
      this.#buffer = grown;
    }
    const buffer = this.#buffer;
    if (this.#plain) {
      buffer.set(bytes, this.#length);
      buffer[this.#length + bytes.length] = 0x0a;
      this.#length = needed;
      return;
    }
    let position = buffer.writeUInt8(selected ? 1 : 0, this.#length);
    position = buffer.writeDoubleLE(lineNumber, position);
    position = buffer.writeUInt32LE(bytes.length, position);
    buffer.set(bytes, position);
    this.#length = position + bytes.length;
  }

  /**
   * For a `plain` writer: the text of `lineCount` selected lines at once, each line of it with
   * its `\n` (empty for lines that print nothing: `grep -o` without a non-empty match).
   */
  addText(lines: Uint8Array, lineCount: number): void {
    if (lines.length === 0) {
      this.#recordCount += lineCount;
      return;
    }
    // One record, whose `\n` is the last line's.
    this.add(lines.subarray(0, lines.length - 1), 0, true);
    this.#recordCount += lineCount - 1;
  }

  /** The records collected so far, on their own buffer; the writer starts a new one. */
  take(): Uint8Array {
    const taken = this.#buffer.subarray(0, this.#length);
    const spare = this.#spare.pop();
    this.#buffer = spare ? Buffer.from(spare) : Buffer.allocUnsafeSlow(this.#bufferBytes);
    this.#length = 0;
    this.#recordCount = 0;
    return taken;
  }

  /** Takes back the buffer of a batch that was read; a grown one (a long line) is let go. */
  recycle(buffer: ArrayBuffer): void {
    if (buffer.byteLength === this.#bufferBytes) this.#spare.push(buffer);
  }
}

/**
 * Calls `visit` with each record of a batch from {@link GrepRecordWriter}, in order, until it
 * returns `false`; returns whether every record was visited.
 *
 * @example
 * ```ts
 * readGrepRecords(batch, (line, lineNumber, selected) => {
 *   console.log(lineNumber, selected, Buffer.from(line).toString());
 *   return true;
 * });
 * ```
 */
export function readGrepRecords(
  batch: Uint8Array,
  visit: (bytes: Uint8Array, lineNumber: number, selected: boolean) => boolean,
): boolean {
  const buffer = Buffer.from(batch.buffer, batch.byteOffset, batch.length);
  let position = 0;
  while (position < buffer.length) {
    const selected = buffer[position] === 1;
    const lineNumber = buffer.readDoubleLE(position + 1);
    const length = buffer.readUInt32LE(position + 9);
    const start = position + headerBytes;
    position = start + length;
    if (!visit(buffer.subarray(start, position), lineNumber, selected)) return false;
  }
  return true;
}
