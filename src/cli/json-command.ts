import { entryPath, type JsonDocument, largeEntryError } from '../artifact/json/json-document.js';
import { queryJson } from '../artifact/json/json-path-query.js';
import { resolveJsonPath } from '../artifact/json/resolve-json-path.js';
import { SpooledJsonArtifact } from '../artifact/json/spooled-json-artifact.js';
import { SpoolforgeError } from '../shared/spoolforge-error.js';
import { readerChunks } from '../spool/reader-chunks.js';
import type { Command } from './cli-context.js';
import type { CliSource } from './cli-source.js';
import type { Output } from './output.js';
import { parseArguments, parseCount, usageError } from './parse-arguments.js';
import { sourceOptions, withSource } from './source-operand.js';

const jsonOptions = [
  { long: 'limit', takesValue: true },
  { long: 'format', takesValue: true },
  ...sourceOptions,
];

/**
 * `spoolforge json [--limit N] [--format json|jsonl] PATH SOURCE`: the values a JSONPath matches
 * in a JSON document or a JSONL file of any size, one compact JSON value a line as `jq -c` prints
 * them, in document order. A document is read entry by entry, so memory stays flat. Exit status
 * 1 when nothing matches (empty input included); invalid JSON is `E_INVALID_JSON` with its line
 * and column, after the values found before it.
 *
 * @example
 * ```ts
 * const status = await jsonCommand(['$[?(@.status >= 500)].id', 'requests.json'], context);
 * ```
 */
export const jsonCommand: Command = async (argv, context) => {
  const parsed = parseArguments(argv, jsonOptions);
  const limitText = parsed.options.get('limit');
  const limit =
    limitText === undefined ? Number.POSITIVE_INFINITY : parseCount(limitText, 'values').value;
  const format = jsonFormat(parsed.options.get('format'), parsed.operands.at(-1));
  return withSource(parsed, ['PATH', 'SOURCE'], context, async (source, [path = '']) => {
    if (limit === 0) return 1;
    const { output } = context;
    const artifact = new SpooledJsonArtifact(await source.reader(), format ? { format } : {});
    let printed = 0;
    try {
      const document = await artifact.document();
      const target = await resolveJsonPath(document, path);
      if (target.segments.length === 1 && target.document.mode !== 'parsed') {
        if (await printWhole(target.document, output, target.prefix)) {
          output.writeByte(0x0a);
          return 0;
        }
      }
      await queryJson(document, path, {
        onEntry: (matches) => {
          for (const match of matches) {
            output.writeUtf8(JSON.stringify(match.value));
            output.writeByte(0x0a);
            if (++printed >= limit) return false;
          }
          // A reader gone away (`| head`) stops the scan.
          return !output.closed;
        },
      });
    } catch (error) {
      if (!SpoolforgeError.isInstance(error) || error.code !== 'E_INVALID_JSON') throw error;
      // No value at all is not a syntax error to jq (an empty stream), nor to this command.
      if (await isBlank(source)) return 1;
      throw invalidJsonAt(parsed.operands.at(-1) ?? '-', error);
    }
    return printed > 0 ? 0 : 1;
  });
};

/**
 * An array or object too large to parse whole (or JSONL, an array of its records), printed as
 * `jq -c .` prints it, one entry at a time, descending into entries too large to parse; false
 * for any other root, left to the query. True too when the reader went away.
 */
async function printWhole(document: JsonDocument, output: Output, at: string): Promise<boolean> {
  const array = document.rootType === 'array';
  if (!array && document.rootType !== 'object') return false;
  output.writeByte(array ? 0x5b : 0x7b);
  let count = 0;
  for await (const entry of document.entries({ large: true })) {
    if (count++ > 0) output.writeByte(0x2c);
    if (!array) output.writeUtf8(`${JSON.stringify(entry.key)}:`);
    if (entry.large) {
      const path = at + entryPath(entry).slice(1);
      const child = await document.child?.(entry.key ?? String(entry.index));
      if (!child || !(await printWhole(child, output, path)))
        throw largeEntryError(path, entry.large);
    } else output.writeUtf8(JSON.stringify(entry.value));
    if (count % 1024 === 0) await output.drain();
    if (output.closed) return true;
  }
  output.writeByte(array ? 0x5d : 0x7d);
  return true;
}

/** `--format`, else JSONL for a `.jsonl` or `.ndjson` name, else sniffed from the content. */
function jsonFormat(option: string | undefined, operand: string | undefined) {
  if (option === 'json' || option === 'jsonl') return option;
  if (option !== undefined) throw usageError(`invalid format: '${option}' (json or jsonl)`);
  const name = (operand ?? '').replace(/[?#].*$/, '').toLowerCase();
  return name.endsWith('.jsonl') || name.endsWith('.ndjson') ? 'jsonl' : undefined;
}

/** True when the source holds nothing but JSON whitespace; stops at the first other byte. */
async function isBlank(source: CliSource): Promise<boolean> {
  // The reader: a stream was spooled by the query, its chunks are gone.
  for await (const chunk of readerChunks(await source.reader())) {
    for (const byte of chunk) {
      if (byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09) return false;
    }
  }
  return true;
}

/**
 * The engine's error for a terminal: the file's name, the line and column, the code; without
 * the sentence meant for a model (which names its tools).
 */
function invalidJsonAt(operand: string, error: SpoolforgeError): SpoolforgeError {
  const name = operand === '-' ? '(standard input)' : operand;
  const problem = error.message.replace(/\.\s+The text tools[\s\S]*$/, '');
  return new SpoolforgeError('E_INVALID_JSON', `${name}: ${problem} (E_INVALID_JSON)`, {
    cause: error,
  });
}
