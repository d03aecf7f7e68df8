import { detectKind } from '../artifact/detect-kind.js';
import { LineIndex } from '../spool/line-index.js';
import type { CliContext, Command } from './cli-context.js';
import type { CliSource } from './cli-source.js';
import { parseArguments } from './parse-arguments.js';
import { Progress } from './progress.js';
import { withSource } from './source-operand.js';

const sniffBytes = 64 * 1024;

/**
 * `spoolforge count SOURCE`: the number of lines as DESIGN §2 defines it (a final line without
 * `\n` counts, unlike `wc -l`).
 *
 * @example
 * ```ts
 * const status = await countCommand(['build.log'], context);
 * ```
 */
export const countCommand: Command = async (argv, context) => {
  const { operands } = parseArguments(argv, []);
  return withSource(operands, ['SOURCE'], context, async (source) => {
    const { lines } = await measure(source, context);
    context.output.writeText(`${lines}\n`);
    return 0;
  });
};

/**
 * `spoolforge stat SOURCE`: one line of JSON with `bytes`, `lines` and the detected `kind`
 * (`text`, `json`, `jsonl`, `markdown` or `binary`).
 *
 * @example
 * ```ts
 * const status = await statCommand(['build.log'], context); // {"bytes":1024,"lines":12,"kind":"text"}
 * ```
 */
export const statCommand: Command = async (argv, context) => {
  const { operands } = parseArguments(argv, []);
  return withSource(operands, ['SOURCE'], context, async (source) => {
    const { bytes, lines, head } = await measure(source, context);
    context.output.writeText(
      `${JSON.stringify({ bytes, lines, kind: detectKind(head, { complete: bytes <= head.length }) })}\n`,
    );
    return 0;
  });
};

/** One streaming pass: byte and line counts, and the first bytes for sniffing. */
async function measure(source: CliSource, context: CliContext) {
  const index = new LineIndex({ stride: Number.MAX_SAFE_INTEGER });
  const progress = new Progress(context.stderr, source.size);
  const head: Uint8Array[] = [];
  let headLength = 0;
  for await (const chunk of source.chunks({ reuseBuffers: true })) {
    if (headLength < sniffBytes) {
      head.push(Buffer.from(chunk.subarray(0, sniffBytes - headLength)));
      headLength += Math.min(chunk.length, sniffBytes - headLength);
    }
    index.append(chunk);
    progress.update(index.byteLength);
  }
  progress.done();
  return { bytes: index.byteLength, lines: index.lineCount, head: Buffer.concat(head) };
}
