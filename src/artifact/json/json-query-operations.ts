import { SpoolforgeError } from '../../shared/spoolforge-error.js';
import type { ToolOperation } from '../forge/op-tool-method.js';
import type { ToolMethodContext } from '../forge/tool-method-descriptor.js';
import type { JsonDocument } from './json-document.js';
import { type JsonMatch, queryJson } from './json-path-query.js';
import {
  artifactJsonName,
  count,
  type JsonOp,
  type JsonToolArgs,
  jsonText,
  modelScan,
  noMatch,
  requirePath,
  scanNote,
} from './json-tool-support.js';
import { renderJsonValue } from './json-view.js';
import { resolveJsonPath } from './resolve-json-path.js';
import { showSlice } from './show-json-slice.js';
import type { SpooledJsonArtifact } from './spooled-json-artifact.js';

type JsonOperation = ToolOperation<SpooledJsonArtifact, JsonToolArgs>;

/**
 * Shows a query's matches, one `path = value` line each, within the result budget; with
 * `countAll` it keeps counting past the budget (until the deadline) for an exact total.
 */
async function showMatches(
  op: JsonOp,
  document: JsonDocument,
  path: string,
  args: JsonToolArgs,
  context: ToolMethodContext,
  options: { countAll?: boolean } = {},
): Promise<string> {
  const { text, maxChars } = jsonText(context);
  let shown = 0;
  let total = 0;
  let cutAt: number | undefined;
  const result = await queryJson(document, path, {
    ...modelScan(context, args.startIndex),
    onEntry: (matches: JsonMatch[], entryIndex) => {
      total += matches.length;
      if (cutAt !== undefined) return options.countAll;
      for (const match of matches) {
        const render = (chars: number) =>
          text.addText(renderJsonValue(match.path, match.value, { context, maxChars: chars }));
        // The first match is shown even if only narrower, so a continuation always makes progress.
        if (!render(maxChars) && (shown > 0 || !render(200))) {
          cutAt = entryIndex;
          return options.countAll;
        }
        shown++;
      }
      return true;
    },
  });
  const stopped = cutAt !== undefined ? { stopped: 'caller' as const, nextIndex: cutAt } : result;
  const note = scanNote(op, args, result.stopped === 'deadline' ? result : stopped, context);
  const counted = result.stopped === 'deadline' ? 'so far' : 'in all';
  if (total === 0 && !note) text.note(noMatch(path));
  else if (options.countAll)
    text.note(`${count(total, 'match', 'matches')} ${counted}, ${shown} shown.`);
  else if (!note) text.note(`${count(shown, 'match', 'matches')}.`);
  if (note) text.note(note);
  return text.toString();
}

const get: JsonOperation = {
  args: ['path', 'startIndex'],
  run: async (artifact, args, context) => {
    const path = requirePath('get', args.path);
    const document = await artifact.document({ signal: context.signal });
    if (path.trim() === '$') return showSlice(document, '$', 0, undefined, context);
    return showMatches('get', document, path, args, context);
  },
};

const filter: JsonOperation = {
  args: ['path', 'startIndex'],
  run: async (artifact, args, context) => {
    const condition = requirePath('filter', args.path).trim();
    const document = await artifact.document({ signal: context.signal });
    const path = /^[$.[]/.test(condition) ? condition : `$[?(${condition})]`;
    return showMatches('filter', document, path, args, context, { countAll: true });
  },
};

const pluck: JsonOperation = {
  args: ['path', 'startIndex'],
  run: async (artifact, args, context) => {
    const relative = requirePath('pluck', args.path)
      .trim()
      .replace(/^[$@]/, '')
      .replace(/^\.(?!\.)/, '');
    const document = await artifact.document({ signal: context.signal });
    const step = relative.startsWith('[') || relative.startsWith('..') ? '' : '.';
    // A path whose first key names an entry too large to parse (`items[*].id` of
    // `{"items":[…]}`) is read from the root, inside that entry: its elements are what a model
    // means to pluck from, and the entry itself could not be read as one value.
    const inside = `$${step}${relative}`;
    const descends = (await resolveJsonPath(document, inside)).prefix !== '$';
    try {
      const path = descends ? inside : `$.*${step}${relative}`;
      return await showMatches('pluck', document, path, args, context);
    } catch (error) {
      // The error names the large entry first (`$['items'] (array, 52 MiB) is larger…`).
      const large = SpoolforgeError.isInstance(error) && /^\$(\S+) \(array,/.exec(error.message);
      if (!large) throw error;
      const within = `${large[1]}[*]${step}${relative}`;
      throw new SpoolforgeError(
        'E_ARTIFACT_TOO_LARGE',
        `${(error as Error).message}. ${artifactJsonName} op "pluck" reads its path inside each top-level entry; to pluck from the elements of this array, start the path with its key: ${within} (as op "get" with $${within} does)`,
        { cause: error },
      );
    }
  },
};

/**
 * The JSON tool's query operations: `get` (values at a JSONPath), `filter` (entries that
 * satisfy a condition, with the exact number of matches), `pluck` (one field of every
 * top-level entry).
 *
 * @example
 * ```ts
 * Object.keys(jsonQueryOperations); // ['get', 'filter', 'pluck']
 * ```
 */
export const jsonQueryOperations = { get, filter, pluck };
