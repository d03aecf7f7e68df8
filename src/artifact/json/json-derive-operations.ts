import { SpoolforgeError, throwIfAborted } from '../../shared/spoolforge-error.js';
import { DerivedOutput, keepDerived } from '../derived-output.js';
import type { ToolOperation } from '../forge/op-tool-method.js';
import type { ToolMethodContext } from '../forge/tool-method-descriptor.js';
import type { JsonDocument } from './json-document.js';
import { type JsonEdit, pathOf, planJsonEdit, splicedBytes } from './json-edit.js';
import { type JsonMatch, queryJson } from './json-path-query.js';
import {
  artifactJsonName,
  type JsonOp,
  type JsonToolArgs,
  requirePath,
} from './json-tool-support.js';
import { notFound } from './locate-json-member.js';
import { isKeySegment, parsePath } from './resolve-json-path.js';
import type { SpooledJsonArtifact } from './spooled-json-artifact.js';

type JsonOperation = ToolOperation<SpooledJsonArtifact, JsonToolArgs>;

/** What `extract` gathers before it writes them out: its memory, whatever the matches' total. */
const extractBatchBytes = 1024 * 1024;

/** A key or an index: a segment that names one member (jsonpath-plus reads `^`, `~`, `$` otherwise). */
const isDefinite = (segment: string) => isKeySegment(segment) && !/^[$^~`]/.test(segment);

/**
 * The keys and indexes of the one value `path` names: read from the path when it has only
 * those, else from its one match (a filter that picks one table, say). No match, or several,
 * is an error the model reads.
 */
async function editSegments(
  document: JsonDocument,
  path: string,
  signal: AbortSignal,
): Promise<string[]> {
  const { JSONPath } = await import('jsonpath-plus');
  const segments = parsePath(path, JSONPath).slice(1);
  if (segments.every(isDefinite)) return segments;
  const matches: JsonMatch[] = [];
  await queryJson(document, path, {
    signal,
    onEntry: (found) => {
      matches.push(...found.slice(0, 2 - matches.length));
      return matches.length < 2;
    },
  });
  const [first, second] = matches;
  if (!first)
    throw notFound(`${path} matches nothing; ${artifactJsonName} op "shape" shows the paths`);
  if (second) {
    throw new SpoolforgeError(
      'E_INVALID_TOOL_ARGS',
      `${path} matches more than one value (${first.path}, ${second.path}, …); an edit needs a path to one, like ${first.path}`,
    );
  }
  return normalizedSegments(first.path);
}

/** The keys and indexes of a normalized path (`$['rows'][3]`, as queries report it). */
function normalizedSegments(path: string): string[] {
  const segments: string[] = [];
  for (const [, index, key] of path.slice(1).matchAll(/\[(?:(\d+)|'(.*?)')\](?=\[|$)/g))
    segments.push(index ?? (key as string));
  return segments;
}

function edit(op: 'set' | 'insert' | 'delete'): JsonOperation {
  const takes = { set: ['value'], insert: ['value', 'start'], delete: [] }[
    op
  ] as (keyof JsonToolArgs & string)[];
  return {
    args: ['path', 'name', ...takes],
    run: async (artifact, args, context) => {
      const { signal } = context;
      const path = requirePath(op, args.path);
      if (op !== 'delete' && args.value == null)
        throw new SpoolforgeError(
          'E_INVALID_TOOL_ARGS',
          `${artifactJsonName} op "${op}" needs a value (JSON text)`,
        );
      const document = await artifact.document({ signal });
      if (document.format !== 'json') {
        throw new SpoolforgeError(
          'E_INVALID_TOOL_ARGS',
          `${op} edits a JSON document, and ${context.callId} is JSONL; op "extract" makes a JSON array of its records`,
        );
      }
      const segments = await editSegments(document, path, signal);
      const value = args.value as string;
      const change: JsonEdit =
        op === 'delete'
          ? { op, segments }
          : op === 'set'
            ? { op, segments, value }
            : { op, segments, value, ...(args.start == null ? {} : { index: args.start }) };
      const byteLength = await artifact.byteLength();
      const splice = await planJsonEdit(artifact.reader, change, { byteLength, signal });
      const bytes = splicedBytes(artifact.reader, splice, { byteLength, signal });
      const summary = `${context.callId} with ${op} at ${pathOf(segments)}, as a new output:`;
      return derive(
        context,
        op,
        new DerivedOutput({ bytes, kind: 'json', name: args.name, summary }),
      );
    },
  };
}

const derive = (context: ToolMethodContext, op: JsonOp, output: DerivedOutput) =>
  keepDerived(context, output, `${artifactJsonName} op "${op}"`);

const extract: JsonOperation = {
  args: ['path', 'name'],
  run: async (artifact, args, context) => {
    const condition = requirePath('extract', args.path).trim();
    const path = /^[$.[]/.test(condition) ? condition : `$[?(${condition})]`;
    const document = await artifact.document({ signal: context.signal });
    const { JSONPath } = await import('jsonpath-plus');
    parsePath(path, JSONPath); // a malformed path fails here, before any output is made
    const bytes = extractedBytes(document, path, context.signal);
    const summary = `The values ${path} matches in ${context.callId}, as a JSON array (a new output):`;
    return derive(
      context,
      'extract',
      new DerivedOutput({ bytes, kind: 'json', name: args.name, summary }),
    );
  },
};

/**
 * The matches as a pretty JSON array, a batch of at most {@link extractBatchBytes} (or one
 * entry's matches) at a time: the scan stops when a batch is full and goes on from that entry
 * once it is written, so memory stays flat whatever the matches' total.
 */
async function* extractedBytes(
  document: JsonDocument,
  path: string,
  signal: AbortSignal,
): AsyncGenerator<Uint8Array> {
  let startIndex = 0;
  let matchCount = 0;
  for (;;) {
    throwIfAborted(signal);
    const parts: string[] = [];
    let bytes = 0;
    const result = await queryJson(document, path, {
      startIndex,
      signal,
      onEntry: (matches) => {
        if (bytes >= extractBatchBytes) return false;
        for (const match of matches) {
          const text = JSON.stringify(match.value, null, 2) ?? 'null';
          const part = `${matchCount++ === 0 ? '[\n' : ',\n'}  ${text.replaceAll('\n', '\n  ')}`;
          bytes += part.length;
          parts.push(part);
        }
        return true;
      },
    });
    if (parts.length) yield Buffer.from(parts.join(''));
    if (result.stopped !== 'caller' || result.nextIndex === undefined) break;
    startIndex = result.nextIndex;
  }
  yield Buffer.from(matchCount === 0 ? '[]\n' : '\n]\n');
}

/**
 * The JSON tool's operations that make a new output instead of text: `set`, `insert` and
 * `delete` at a path (the document spliced at the value's bytes, every other byte kept) and
 * `extract` (the values a path or condition matches, as a JSON array). Each takes an optional
 * `name` for the new output.
 *
 * @example
 * ```ts
 * Object.keys(jsonDeriveOperations); // ['set', 'insert', 'delete', 'extract']
 * ```
 */
export const jsonDeriveOperations = {
  set: edit('set'),
  insert: edit('insert'),
  delete: edit('delete'),
  extract,
};
