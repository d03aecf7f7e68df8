/**
 * One line of an artifact: its 0-based number and its UTF-8 decoded text without the `\n`
 * (a `\r` before the `\n` stays, as in GNU tools).
 *
 * @example
 * ```ts
 * const [first] = await artifact.head(1); // { lineNumber: 0, text: 'first line' }
 * ```
 */
export interface ArtifactLine {
  lineNumber: number;
  text: string;
}
