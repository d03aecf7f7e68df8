import { sniffBuiltInKind } from '../artifact/kinds/built-in-sniffers.js';
import { sniffBytes } from '../artifact/kinds/sniff-sample.js';
import { LineIndex } from '../spool/line-index.js';
import { loadLineIndex, minimumCachedFileBytes, saveLineIndex } from '../spool/line-index-cache.js';
import { buildLineIndexInParallel } from '../spool/parallel-line-index.js';
import { runsInParallel } from '../spool/parallel-threshold.js';
import type { CliContext, Command } from './cli-context.js';
import type { CliSource } from './cli-source.js';
import { parseArguments } from './parse-arguments.js';
import { Progress } from './progress.js';
import { sourceOptions, withSource } from './source-operand.js';

/**
 * `spoolforge count SOURCE`: the number of lines as every query counts them (a final line without
 * `\n` counts, unlike `wc -l`).
 *
 * @example
 * ```ts
 * const status = await countCommand(['build.log'], context);
 * ```
 */
export const countCommand: Command = async (argv, context) => {
  return withSource(parseArguments(argv, sourceOptions), ['SOURCE'], context, async (source) => {
    const { lines } = await measure(source, context, { sniff: false });
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
  return withSource(parseArguments(argv, sourceOptions), ['SOURCE'], context, async (source) => {
    const { bytes, lines, head } = await measure(source, context, { sniff: true });
    context.output.writeText(
      `${JSON.stringify({ bytes, lines, kind: sniffBuiltInKind(head, { complete: bytes <= head.length }) })}\n`,
    );
    return 0;
  });
};

/**
 * Byte and line counts, and with `sniff` the first bytes, in one streaming pass. A large file
 * resumes from its persisted line index (nothing left to read when it is complete) and
 * persists what it adds.
 */
async function measure(source: CliSource, context: CliContext, options: { sniff: boolean }) {
  const { file } = source;
  const cached = file && (await loadLineIndex(file));
  // A large file without an index is indexed by worker threads, one line-aligned part each.
  const parallel = !cached && file && runsInParallel(file, 'index');
  // A stream keeps no checkpoints: they would only grow with its length.
  const index =
    cached ||
    (parallel ? await buildLineIndexInParallel(file.path) : undefined) ||
    new LineIndex(file ? {} : { stride: Number.MAX_SAFE_INTEGER });
  const covered = parallel ? 0 : index.byteLength;
  const progress = new Progress(context.stderr, source.size);
  const head: Uint8Array[] = [];
  let headLength = 0;
  const keepHead = (chunk: Uint8Array) => {
    if (!options.sniff || headLength >= sniffBytes) return;
    head.push(Buffer.from(chunk.subarray(0, sniffBytes - headLength)));
    headLength += Math.min(chunk.length, sniffBytes - headLength);
  };
  if (index.byteLength > 0 && options.sniff) {
    const end = Math.min(sniffBytes, index.byteLength);
    for await (const chunk of source.chunks({ end })) keepHead(chunk);
  }
  for await (const chunk of source.chunks({
    start: index.byteLength,
    reuseBuffers: true,
    countInPlace: true,
  })) {
    keepHead(chunk);
    index.append(chunk);
    progress.update(index.byteLength);
  }
  progress.done();
  if (file && index.byteLength - covered >= minimumCachedFileBytes)
    await saveLineIndex(file, index, { stderr: () => context.stderr });
  return { bytes: index.byteLength, lines: index.lineCount, head: Buffer.concat(head) };
}
