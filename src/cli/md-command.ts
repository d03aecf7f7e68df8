import { SpooledMarkdownArtifact } from '../artifact/markdown/spooled-markdown-artifact.js';
import { SpoolforgeError } from '../shared/spoolforge-error.js';
import type { Command } from './cli-context.js';
import type { CliSource } from './cli-source.js';
import { codeBlockText } from './code-block-text.js';
import type { Output } from './output.js';
import { type ParsedArguments, parseArguments, parseCount, usageError } from './parse-arguments.js';
import { sourceOptions, withSource } from './source-operand.js';

const mdOptions = [
  { long: 'depth', takesValue: true },
  { long: 'index', takesValue: true },
  ...sourceOptions,
];

/**
 * `spoolforge md headings|sections|section NAME|code [LANG] SOURCE`: the structure of a Markdown
 * document (CommonMark and GFM, front matter skipped), line numbers 1-based as grep -n and sed
 * count them:
 * - `headings [--depth N]`: `LINE:## Title` a heading, setext ones written as ATX;
 * - `sections [--depth N]`: `START-END:## Title`, each section's inclusive line range (to
 *   before the next heading of the same or a smaller depth), ready for `spoolforge lines`;
 * - `section NAME` (or `section --index N`): the section's lines as written;
 * - `code [LANG]`: the text of each code block (of that language), without its fences.
 * Exit status 1 when there is no heading, section or code block to print.
 *
 * @example
 * ```ts
 * const status = await mdCommand(['headings', '--depth', '2', 'README.md'], context);
 * ```
 */
export const mdCommand: Command = async (argv, context) => {
  const [query, ...rest] = argv;
  const parsed = parseArguments(rest, mdOptions);
  const depth = optionalCount(parsed, 'depth');
  if (depth !== undefined && query !== 'headings' && query !== 'sections')
    throw usageError('--depth is for md headings and md sections');
  if (parsed.options.has('index') && query !== 'section')
    throw usageError('--index is for md section');
  const { output } = context;
  const open = async (source: CliSource) => new SpooledMarkdownArtifact(await source.reader());
  switch (query) {
    case 'headings':
      return withSource(parsed, ['SOURCE'], context, async (source) => {
        const headings = await (await open(source)).headings(depth === undefined ? {} : { depth });
        for (const { lineNumber, depth, text } of headings)
          output.writeUtf8(`${lineNumber + 1}:${'#'.repeat(depth)} ${text}\n`);
        return headings.length > 0 ? 0 : 1;
      });
    case 'sections':
      return withSource(parsed, ['SOURCE'], context, async (source) => {
        const sections = await (await open(source)).sections(depth === undefined ? {} : { depth });
        for (const { start, end, depth, heading } of sections)
          output.writeUtf8(`${start + 1}-${end}:${'#'.repeat(depth)} ${heading}\n`);
        return sections.length > 0 ? 0 : 1;
      });
    case 'section': {
      const index = optionalCount(parsed, 'index');
      const names = index === undefined ? ['NAME', 'SOURCE'] : ['SOURCE'];
      return withSource(parsed, names, context, async (source, [name = '']) => {
        const section = await (await open(source))
          .section(index ?? name)
          .catch((error: unknown) => {
            throw withIndexHint(error);
          });
        writeLines(output, section.lines);
        return 0;
      });
    }
    case 'code': {
      const operands = parsed.operands.length > 1 ? ['LANG', 'SOURCE'] : ['SOURCE'];
      return withSource(parsed, operands, context, async (source, [first = '']) => {
        const artifact = await open(source);
        const lang = operands.length > 1 ? first : undefined;
        const blocks = await artifact.codeBlocks(lang === undefined ? {} : { lang });
        for (const block of blocks) {
          const lines = [];
          for await (const line of artifact.lines(block.start, block.end)) lines.push(line);
          writeLines(output, codeBlockText(block, lines));
          await output.drain();
          if (output.closed) break;
        }
        return blocks.length > 0 ? 0 : 1;
      });
    }
    default:
      throw usageError(
        query === undefined
          ? 'missing md query (headings, sections, section or code)'
          : `unknown md query '${query}' (headings, sections, section or code)`,
      );
  }
};

function optionalCount(parsed: ParsedArguments, name: 'depth' | 'index'): number | undefined {
  const text = parsed.options.get(name);
  return text === undefined ? undefined : parseCount(text, name).value;
}

function writeLines(output: Output, lines: readonly { text: string }[]): void {
  for (const { text } of lines) {
    output.writeUtf8(text);
    output.writeByte(0x0a);
  }
}

/** The engine names sections by index for a model; a terminal user needs the option too. */
function withIndexHint(error: unknown): unknown {
  if (!SpoolforgeError.isInstance(error) || error.code !== 'E_INVALID_ARGUMENT') return error;
  return new SpoolforgeError('E_INVALID_ARGUMENT', `${error.message} (md section --index N)`, {
    cause: error,
  });
}
