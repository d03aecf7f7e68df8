/// <reference path="./wat-module.d.ts" />
// The type of the `.wat` import, also for programs that start from the entries (doc examples).
import kernelsBase64 from './simd-kernels.wat';

/** The part of the WebAssembly API used here (the project's `lib` has no WebAssembly types). */
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: Record<string, unknown> };
};

const pageBytes = 64 * 1024;
/** The first two pages: where `countNewlinesSimd` copies bytes outside the memory to count them. */
export const countWindow = { offset: 0, length: 128 * 1024 };
/** The third page: a search's needle, then the lines it found (three i32s each). */
export const searchNeedle = { offset: 128 * 1024, length: 256 };
export const searchOut = { offset: searchNeedle.offset + searchNeedle.length, lines: 5440 };
/** After them, the read buffers of `countableBuffer`, then where a search copies a block. */
export const poolStart = 192 * 1024;
export const poolBuffers = 8;
export const poolBufferBytes = 1024 * 1024;
export const searchWindow = { offset: poolStart + poolBuffers * poolBufferBytes, length: 1 << 20 };
/** Last, the rows of the line automaton a `dfa` call walks (1,024 rows of 256 i32s). */
export const dfaTable = { offset: searchWindow.offset + searchWindow.length, length: 1 << 20 };
/** Then the starts of a block's matching lines a `select` call reads, and where it copies the text. */
export const selectStarts = { offset: dfaTable.offset + dfaTable.length, entries: 64 * 1024 };
export const selectOut = {
  offset: selectStarts.offset + selectStarts.entries * 4,
  // A pool buffer's lines, a `\n` added to the last, and the 15 bytes a 16-byte copy writes past.
  length: poolBufferBytes + pageBytes,
};

/** The kernels of src/spool/simd-kernels.wat over their one memory. */
export interface SimdKernels {
  /** `\n` in `[start, end)` of the memory, whole 64-byte groups only. */
  count: (start: number, end: number) => number;
  /** Matching lines of `[start, end)`; see the `search` function of the `.wat`. */
  search: (
    needle: number,
    length: number,
    pair: number,
    start: number,
    end: number,
    out: number,
    capacity: number,
    /** 1: ASCII letters match in either case (the needle in lower case). */
    fold: number,
  ) => number;
  /** Lines of `[start, end)` a line automaton ends on; see the `dfa` function of the `.wat`. */
  dfa: (
    table: number,
    lineStart: number,
    idle: number,
    high: number,
    row: number,
    start: number,
    end: number,
    out: number,
    capacity: number,
  ) => number;
  /**
   * Copies the text grep prints of a block's lines to `dst`: its matching lines, or with
   * `invert` the others; see the `select` function of the `.wat`. Returns where the copy ends.
   */
  select: (
    starts: number,
    count: number,
    from: number,
    end: number,
    invert: number,
    tail: number,
    dst: number,
  ) => number;
  /** Where the last `search`, `dfa` or `select` call stopped. */
  resume: { value: number };
  /** The automaton's row where the last `dfa` call stopped. */
  row: { value: number };
  /** The memory's buffer, fixed for the process: never grown after the layout above. */
  memory: ArrayBuffer;
  /** The whole memory as bytes. */
  bytes: Buffer;
  /** The memory as i32s, for the lines a search found. */
  words: Int32Array;
  /**
   * Whether the memory was grown past the window pages: without, no pool, search window,
   * automaton or selection.
   */
  grown: boolean;
}

/** Compiled on first use; `null` where WebAssembly SIMD is unavailable (callers use `indexOf`). */
let kernels: SimdKernels | null | undefined;

function compileKernels(): SimdKernels | null {
  try {
    const bytes = Buffer.from(kernelsBase64, 'base64');
    const { exports } = new WebAssembly.Instance(new WebAssembly.Module(bytes));
    const memory = exports.memory as { buffer: ArrayBuffer; grow: (pages: number) => number };
    // Grown once, before any view of it exists: growing detaches every view of the old buffer.
    // Pages no scan reads into are never touched, so they take address space, not memory.
    let grown = true;
    try {
      memory.grow((selectOut.offset + selectOut.length - poolStart) / pageBytes);
    } catch {
      grown = false; // no address space to spare: bytes are copied into the window, as before
    }
    const { buffer } = memory;
    return {
      count: exports.count as SimdKernels['count'],
      search: exports.search as SimdKernels['search'],
      dfa: exports.dfa as SimdKernels['dfa'],
      select: exports.select as SimdKernels['select'],
      resume: exports.resume as SimdKernels['resume'],
      row: exports.row as SimdKernels['row'],
      memory: buffer,
      bytes: Buffer.from(buffer),
      words: new Int32Array(buffer),
      grown,
    };
  } catch {
    return null;
  }
}

/**
 * The SIMD kernels, compiled on first use (a CLI `tail` never counts); `null` without
 * WebAssembly SIMD.
 *
 * @example
 * ```ts
 * const kernels = simdKernels();
 * if (kernels) console.log(kernels.count(0, 64));
 * ```
 */
export function simdKernels(): SimdKernels | null {
  if (kernels === undefined) kernels = compileKernels(); // null: no SIMD here, tried once
  return kernels;
}
