/**
 * What a scan does with the lines it selects, in the order grep prints them.
 */
export interface GrepSink {
  /**
   * A selected line (`isMatch`) or a context line, without its `\n`. Return `false` to stop.
   * The bytes are valid only during the call (the buffer is reused): copy them to keep them.
   */
  line(bytes: Uint8Array, lineNumber: number, isMatch: boolean): boolean | undefined;
  /** Between two printed groups that are not adjacent, when context was asked for. */
  separator(): void;
  /**
   * Optional, for a sink that prints each selected line followed by `\n` and nothing else:
   * without line numbers or context, a scan then hands over `lineCount` selected lines at once,
   * `\n`s included (a run of adjacent ones, or a parallel part's output), instead of line by
   * line. Return `false` to stop. As with `line`, the bytes are valid only during the call.
   */
  text?(lines: Uint8Array, lineCount: number): boolean | undefined;
}
