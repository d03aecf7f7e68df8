import { z } from 'zod';
import { SpoolforgeError } from '../../shared/spoolforge-error.js';
import type { ToolMethodContext, ToolMethodDescriptor } from '../forge/tool-method-descriptor.js';
import { jsonType } from './json-document.js';
import { queryJson } from './json-path-query.js';
import { formatShapeField } from './json-shape.js';
import {
  count,
  jsonArgs,
  jsonScanTimeout,
  jsonText,
  modelScan,
  scanNote,
} from './json-tool-support.js';
import { describeJson, describeLarge, describeRoot } from './json-view.js';
import { resolveJsonPath } from './resolve-json-path.js';
import { showSlice } from './show-json-slice.js';
import type { SpooledJsonArtifact } from './spooled-json-artifact.js';

const isRoot = (path: string | null | undefined) => path == null || path.trim() === '$';

/** One line per value a path matches, by `describe`; the root is described without a parse. */
async function describeMatches(
  toolName: string,
  artifact: SpooledJsonArtifact,
  args: { path?: string | null | undefined; startIndex?: number | null | undefined },
  context: ToolMethodContext,
  describe: (value: unknown) => string,
): Promise<string> {
  const document = await artifact.document({ signal: context.signal });
  const target = await resolveJsonPath(document, args.path ?? '$');
  if (target.segments.length === 1) return describeRoot(target.document, target.prefix);
  const { text } = jsonText(context);
  let shown = 0;
  const result = await queryJson(document, args.path as string, {
    ...modelScan(context, args.startIndex),
    onEntry: (matches) => {
      for (const match of matches) {
        if (!text.addText(`${match.path}: ${describe(match.value)}`)) return false;
        shown++;
      }
      return true;
    },
    // Type and size need no parse: an entry too large to parse is described by its index.
    onLarge: async (path, entry, holder) => {
      if (text.addText(`${path}: ${await describeLarge(holder, entry)}`)) shown++;
    },
  });
  const note = scanNote(toolName, args, result, context);
  if (note) text.note(note);
  else if (shown === 0)
    text.note(`No match for ${args.path}. artifact_json_shape shows the paths that exist.`);
  return text.toString();
}

const pathArgs = { path: jsonArgs.path, startIndex: jsonArgs.startIndex };

const type: ToolMethodDescriptor<SpooledJsonArtifact, typeof pathArgs> = {
  name: 'artifact_json_type',
  description:
    'The JSON type (and size) of the values at a JSONPath of a spooled JSON/JSONL output.',
  args: pathArgs,
  run: (artifact, args, context) =>
    describeMatches('artifact_json_type', artifact, args, context, describeJson),
};

const length: ToolMethodDescriptor<SpooledJsonArtifact, typeof pathArgs> = {
  name: 'artifact_json_length',
  description:
    'How many elements, keys or characters the values at a JSONPath have (default $: the top level).',
  args: pathArgs,
  run: (artifact, args, context) =>
    describeMatches('artifact_json_length', artifact, args, context, (value) => {
      const kind = jsonType(value);
      if (kind === 'array') return count((value as unknown[]).length, 'element');
      if (kind === 'object') return count(Object.keys(value as object).length, 'key');
      if (kind === 'string') return count((value as string).length, 'character');
      return `${kind} (no length)`;
    }),
};

const keys: ToolMethodDescriptor<SpooledJsonArtifact, typeof pathArgs> = {
  name: 'artifact_json_keys',
  description:
    'The keys of the object at a JSONPath with their value types; over many objects (e.g. every element of the top-level array) the union of their keys with how many objects have each.',
  args: pathArgs,
  run: async (artifact, args, context) => {
    const document = await artifact.document({ signal: context.signal });
    const target = await resolveJsonPath(document, args.path ?? '$');
    const atRoot = target.segments.length === 1;
    const path =
      atRoot && target.document.rootType === 'array' ? `${target.prefix}[*]` : (args.path ?? '$');
    const objects: Map<string, { count: number; types: Set<string> }> = new Map();
    let objectCount = 0;
    const largeObjects: string[] = [];
    const add = (value: unknown) => {
      if (jsonType(value) !== 'object') return;
      objectCount++;
      for (const [key, member] of Object.entries(value as object)) {
        const entry = objects.get(key) ?? { count: 0, types: new Set<string>() };
        if (objects.size < 10_000 || objects.has(key)) objects.set(key, entry);
        entry.count++;
        entry.types.add(jsonType(member));
      }
    };
    const root = atRoot && target.document.rootType === 'object';
    const result = root
      ? {}
      : await queryJson(document, path, {
          ...modelScan(context, args.startIndex),
          onEntry: (matches) => {
            for (const match of matches) add(match.value);
            return true;
          },
          // An element too large to parse is skipped unless it is an object, which is named.
          onLarge: (at, { large }) => large.type === 'object' && largeObjects.push(at),
        });
    if (root) {
      objectCount = 1;
      const entries = target.document.entries({ signal: context.signal, large: true });
      for await (const entry of entries) {
        const type = entry.large
          ? await describeLarge(target.document, entry)
          : describeJson(entry.value);
        objects.set(entry.key as string, { count: 1, types: new Set([type]) });
      }
    }
    if (objectCount === 0)
      return `No object at ${path}: ${atRoot ? describeRoot(target.document, target.prefix) : 'see artifact_json_type'}.`;
    const { text } = jsonText(context);
    text.addText(
      objectCount === 1
        ? `${path}: ${count(objects.size, 'key')}`
        : `${path}: ${count(objectCount, 'object')}, ${count(objects.size, 'distinct key')} (key: types, objects that have it)`,
    );
    for (const [key, entry] of objects) {
      const share = objectCount === 1 ? '' : `, ${entry.count.toLocaleString('en-US')}`;
      if (!text.addText(`${JSON.stringify(key)}: ${[...entry.types].join(' | ')}${share}`)) {
        text.note(`[cut: more keys follow; narrow the path, e.g. ${path}['${key}']]`);
        break;
      }
    }
    if (largeObjects.length)
      text.note(
        `[${count(largeObjects.length, 'object')} too large to parse not counted; ask for their keys one by one: ${largeObjects.slice(0, 3).join(', ')}${largeObjects.length > 3 ? ', …' : ''}]`,
      );
    const note = scanNote('artifact_json_keys', args, result, context);
    if (note) text.note(note);
    return text.toString();
  },
};

const sliceArgs = {
  path: jsonArgs.path,
  start: z
    .number()
    .int()
    .min(0)
    .nullish()
    .describe('First entry, 0-based as in JSONPath (default 0).'),
  end: z
    .number()
    .int()
    .min(0)
    .nullish()
    .describe('Stop before this entry, like $[start:end] (default: as many as fit).'),
};

const slice: ToolMethodDescriptor<SpooledJsonArtifact, typeof sliceArgs> = {
  name: 'artifact_json_slice',
  description:
    'Entries start..end-1 (0-based, like $[start:end]) of the top-level array, object or JSONL records, or of the array or object at a path; one `path = compact JSON` line each.',
  args: sliceArgs,
  run: async (artifact, args, context) => {
    const document = await artifact.document({ signal: context.signal });
    if (args.end != null && args.end < (args.start ?? 0)) {
      throw new SpoolforgeError(
        'E_INVALID_TOOL_ARGS',
        `end (${args.end}) is before start (${args.start ?? 0})`,
      );
    }
    return showSlice(document, args.path ?? '$', args.start ?? 0, args.end ?? undefined, context);
  },
};

const shapeArgs = { path: jsonArgs.path };

const shape: ToolMethodDescriptor<SpooledJsonArtifact, typeof shapeArgs> = {
  name: 'artifact_json_shape',
  description:
    'An inferred schema of a spooled JSON/JSONL output (or of the values at a path): every field path with its types, how often it occurs and an example. Start here.',
  args: shapeArgs,
  run: async (artifact, args, context) => {
    const started = performance.now();
    const result = await artifact.shape({
      ...(args.path == null ? {} : { path: args.path }),
      signal: context.signal,
      timeout: jsonScanTimeout,
    });
    const { text } = jsonText(context);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const scope = isRoot(args.path)
      ? describeRoot(result.document)
      : `${args.path}: ${count(result.scanned, 'value')}`;
    const partial =
      result.stopped === 'deadline'
        ? `; stopped after ${jsonScanTimeout / 1000} s, before entry ${result.nextIndex}`
        : '';
    text.addText(`${scope}; ${count(result.scanned, 'value')} scanned in ${seconds} s${partial}.`);
    for (const field of result.shape.fields()) {
      if (!text.addText(formatShapeField(field))) {
        text.note('[cut: more fields; ask for the shape of a narrower path]');
        break;
      }
    }
    const dropped = result.shape.droppedFields;
    if (dropped.count)
      text.note(
        `[${count(dropped.count, 'more field path')} not tracked (keys that look like data?), e.g. ${dropped.examples.join(', ')}]`,
      );
    return text.toString();
  },
};

/**
 * The JSON structure tools: `artifact_json_type`, `artifact_json_keys`, `artifact_json_length`,
 * `artifact_json_slice`, `artifact_json_shape`.
 *
 * @example
 * ```ts
 * jsonStructureToolMethods.map((method) => method.name);
 * ```
 */
export const jsonStructureToolMethods = [type, keys, length, slice, shape] as const;
