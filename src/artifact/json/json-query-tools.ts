import { z } from 'zod';
import { SpoolforgeError } from '../../shared/spoolforge-error.js';
import type { ToolMethodContext, ToolMethodDescriptor } from '../forge/tool-method-descriptor.js';
import type { JsonDocument } from './json-document.js';
import { type JsonMatch, queryJson } from './json-path-query.js';
import { count, jsonArgs, jsonText, modelScan, scanNote } from './json-tool-support.js';
import { renderJsonValue } from './json-view.js';
import { resolveJsonPath } from './resolve-json-path.js';
import { showSlice } from './show-json-slice.js';
import type { SpooledJsonArtifact } from './spooled-json-artifact.js';

/**
 * Shows a query's matches, one `path = value` line each, within the result budget; with
 * `countAll` it keeps counting past the budget (until the deadline) for an exact total.
 */
async function showMatches(
  toolName: string,
  document: JsonDocument,
  path: string,
  args: { startIndex?: number | null | undefined },
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
          text.addText(
            renderJsonValue(match.path, match.value, { callId: context.callId, maxChars: chars }),
          );
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
  const note = scanNote(toolName, args, result.stopped === 'deadline' ? result : stopped, context);
  const counted = result.stopped === 'deadline' ? 'so far' : 'in all';
  if (total === 0 && !note)
    text.note(`No match for ${path}. artifact_json_shape shows the paths that exist.`);
  else if (options.countAll)
    text.note(`${count(total, 'match', 'matches')} ${counted}, ${shown} shown.`);
  else if (!note) text.note(`${count(shown, 'match', 'matches')}.`);
  if (note) text.note(note);
  return text.toString();
}

const getArgs = {
  path: z.string().describe(jsonArgs.path.description ?? ''),
  startIndex: jsonArgs.startIndex,
};

const get: ToolMethodDescriptor<SpooledJsonArtifact, typeof getArgs> = {
  name: 'artifact_json_get',
  description:
    'Values at a JSONPath in a spooled JSON/JSONL output, each as `path = compact JSON`. Big values are cut and name the call that continues them. JSONL is an array of records: $[41] is line 42.',
  args: getArgs,
  run: async (artifact, args, context) => {
    const document = await artifact.document({ signal: context.signal });
    if (args.path.trim() === '$') return showSlice(document, '$', 0, undefined, context);
    return showMatches('artifact_json_get', document, args.path, args, context);
  },
};

const filterArgs = {
  path: z
    .string()
    .describe(
      'A JSONPath with a filter, e.g. $[?(@.status >= 500)] or $.items[?(@.tags.includes("x"))], or just the condition: @.status >= 500. Use ==, !=, <, >, &&, ||, !; regular expressions are not allowed.',
    ),
  startIndex: jsonArgs.startIndex,
};

const filter: ToolMethodDescriptor<SpooledJsonArtifact, typeof filterArgs> = {
  name: 'artifact_json_filter',
  description:
    'Entries of a spooled JSON/JSONL output that satisfy a condition, with the exact number of matches (the scan counts past what is shown).',
  args: filterArgs,
  run: async (artifact, args, context) => {
    const document = await artifact.document({ signal: context.signal });
    const condition = args.path.trim();
    const path = /^[$.[]/.test(condition) ? condition : `$[?(${condition})]`;
    return showMatches('artifact_json_filter', document, path, args, context, { countAll: true });
  },
};

const pluckArgs = {
  path: z
    .string()
    .describe(
      "A path inside each top-level entry, e.g. user.id or tags[0] (as $[*].user.id would be); or, when the top level is an object with one huge array, that array's key first: items[*].id.",
    ),
  startIndex: jsonArgs.startIndex,
};

const pluck: ToolMethodDescriptor<SpooledJsonArtifact, typeof pluckArgs> = {
  name: 'artifact_json_pluck',
  description:
    'One field from every top-level entry (element, member or JSONL record), one `$[i] = value` line per entry that has it.',
  args: pluckArgs,
  run: async (artifact, args, context) => {
    const document = await artifact.document({ signal: context.signal });
    const relative = args.path
      .trim()
      .replace(/^[$@]/, '')
      .replace(/^\.(?!\.)/, '');
    const step = relative.startsWith('[') || relative.startsWith('..') ? '' : '.';
    // A path whose first key names an entry too large to parse (`items[*].id` of
    // `{"items":[…]}`) is read from the root, inside that entry: its elements are what a model
    // means to pluck from, and the entry itself could not be read as one value.
    const inside = `$${step}${relative}`;
    const descends = (await resolveJsonPath(document, inside)).prefix !== '$';
    try {
      const path = descends ? inside : `$.*${step}${relative}`;
      return await showMatches('artifact_json_pluck', document, path, args, context);
    } catch (error) {
      // The error names the large entry first (`$['items'] (array, 52 MiB) is larger…`).
      const large = SpoolforgeError.isInstance(error) && /^\$(\S+) \(array,/.exec(error.message);
      if (!large) throw error;
      const within = `${large[1]}[*]${step}${relative}`;
      throw new SpoolforgeError(
        'E_ARTIFACT_TOO_LARGE',
        `${(error as Error).message}. artifact_json_pluck reads its path inside each top-level entry; to pluck from the elements of this array, start the path with its key: ${within} (as artifact_json_get $${within} does)`,
        { cause: error },
      );
    }
  },
};

/**
 * The JSON query tools: `artifact_json_get`, `artifact_json_filter`, `artifact_json_pluck`.
 *
 * @example
 * ```ts
 * jsonQueryToolMethods.map((method) => method.name);
 * ```
 */
export const jsonQueryToolMethods = [get, filter, pluck] as const;
