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
   * Optional, for a sink that prints each selected line followed by `\n` and nothing else (no
   * line numbers, no context, no `-m`): a parallel scan then hands over each part's output as
   * it is, many lines at once, instead of line by line. Return `false` to stop. As with
   * `line`, the bytes are valid only during the call.
   */
  text?(lines: Uint8Array): boolean | undefined;
}
