import { SpoolforgeError } from '../shared/spoolforge-error.js';
import { checkOutputName } from './output-name.js';

const brand = Symbol.for('spoolforge.derivedOutput');

/**
 * A new output a tool method made of an artifact (a JSON document with one value set, the
 * matches of a filter as an array) instead of text to show. Its bytes come as they are made,
 * never whole in memory. The method hands it to `context.derive`; the host keeps it like any
 * spooled tool result (`ToolSession` spools it as the result of the call that made it, the MCP
 * proxy puts it into its store) and shows the model its handle under `summary`.
 *
 * @example
 * ```ts
 * const copy = new DerivedOutput({
 *   bytes: readerChunks(artifact.reader),
 *   kind: 'text',
 *   summary: 'A copy of call_1.',
 * });
 * ```
 */
export class DerivedOutput {
  readonly [brand] = true;
  /** The new output's bytes, read once. */
  readonly bytes: AsyncIterable<Uint8Array>;
  /** Its kind's name (`json`, `text`, …). */
  readonly kind: string;
  /**
   * A name the model gave it, kept as the artifact's `name`: one line of 1 to 100
   * characters, not only spaces (else `E_INVALID_TOOL_ARGS`).
   */
  readonly name: string | undefined;
  /** One line: what it is and what it was made of. */
  readonly summary: string;

  constructor(init: {
    bytes: AsyncIterable<Uint8Array>;
    kind: string;
    name?: string | null | undefined;
    summary: string;
  }) {
    this.bytes = init.bytes;
    this.kind = init.kind;
    this.name = checkOutputName(init.name ?? undefined, 'E_INVALID_TOOL_ARGS');
    this.summary = init.summary;
  }

  /** True for a `DerivedOutput` of any copy of the package. */
  static isInstance(value: unknown): value is DerivedOutput {
    return typeof value === 'object' && value !== null && brand in value;
  }
}

/**
 * Hands `output` to the host through `context.derive`; where the host keeps no new outputs, an
 * `E_INVALID_TOOL_ARGS` the model reads (`what` names the operation).
 *
 * @example
 * ```ts
 * const copy: ToolMethodDescriptor<SpooledArtifact> = {
 *   name: 'artifact_copy',
 *   description: 'A copy of a spooled output, as a new output.',
 *   args: {},
 *   run: (artifact, _args, context) =>
 *     keepDerived(
 *       context,
 *       new DerivedOutput({ bytes: readerChunks(artifact.reader), kind: 'text', summary: 'A copy:' }),
 *       'artifact_copy',
 *     ),
 * };
 * ```
 */
export async function keepDerived(
  // A `ToolMethodContext`, by the one member read (the forge layer's type imports this file).
  context: { derive?: ((output: DerivedOutput) => Promise<string>) | undefined },
  output: DerivedOutput,
  what: string,
): Promise<string> {
  if (!context.derive) {
    throw new SpoolforgeError(
      'E_INVALID_TOOL_ARGS',
      `${what} makes a new output, which is not kept here; the queries that show text still work`,
    );
  }
  return context.derive(output);
}
