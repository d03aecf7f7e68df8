import { SpoolforgeError } from '../../shared/spoolforge-error.js';
import type { ToolOperation } from '../forge/op-tool-method.js';
import type { ToolMethodContext } from '../forge/tool-method-descriptor.js';
import { jsonType } from './json-document.js';
import { queryJson } from './json-path-query.js';
import { formatShapeField } from './json-shape.js';
import {
  artifactJsonName,
  count,
  type JsonOp,
  type JsonToolArgs,
  jsonScanTimeout,
  jsonText,
  modelScan,
  noMatch,
  scanNote,
} from './json-tool-support.js';
import { describeJson, describeLarge, describeRoot } from './json-view.js';
import { resolveJsonPath } from './resolve-json-path.js';
import { showSlice } from './show-json-slice.js';
import type { SpooledJsonArtifact } from './spooled-json-artifact.js';

type JsonOperation = ToolOperation<SpooledJsonArtifact, JsonToolArgs>;

const isRoot = (path: string | null | undefined) => path == null || path.trim() === '$';

/** One line per value a path matches, by `describe`; the root is described without a parse. */
async function describeMatches(
  op: JsonOp,
  artifact: SpooledJsonArtifact,
  args: JsonToolArgs,
  context: ToolMethodContext,
  describe: (value: unknown) => string,
): Promise<string> {
  const document = await artifact.document({ signal: context.signal });
  const target = await resolveJsonPath(document, args.path ?? '$');
  if (target.segments.length === 1)
    return describeRoot(target.document, target.prefix, { signal: context.signal });
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
  const note = scanNote(op, args, result, context);
  if (note) text.note(note);
  else if (shown === 0) text.note(noMatch(args.path));
  return text.toString();
}

const type: JsonOperation = {
  args: ['path', 'startIndex'],
  run: (artifact, args, context) => describeMatches('type', artifact, args, context, describeJson),
};

const length: JsonOperation = {
  args: ['path', 'startIndex'],
  run: (artifact, args, context) =>
    describeMatches('length', artifact, args, context, (value) => {
      const kind = jsonType(value);
      if (kind === 'array') return count((value as unknown[]).length, 'element');
      if (kind === 'object') return count(Object.keys(value as object).length, 'key');
      if (kind === 'string') return count((value as string).length, 'character');
      return `${kind} (no length)`;
    }),
};

const keys: JsonOperation = {
  args: ['path', 'startIndex'],
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
      return `No object at ${path}: ${atRoot ? await describeRoot(target.document, target.prefix, { signal: context.signal }) : `see ${artifactJsonName} op "type"`}.`;
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
    const note = scanNote('keys', args, result, context);
    if (note) text.note(note);
    return text.toString();
  },
};

const slice: JsonOperation = {
  args: ['path', 'start', 'end'],
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

const shape: JsonOperation = {
  args: ['path'],
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
      ? await describeRoot(result.document, '$', { signal: context.signal })
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
 * The JSON tool's structure operations: `shape` (an inferred schema), `type`, `keys`, `length`
 * (what is at a path, without showing it) and `slice` (entries by position).
 *
 * @example
 * ```ts
 * Object.keys(jsonStructureOperations); // ['shape', 'type', 'keys', 'length', 'slice']
 * ```
 */
export const jsonStructureOperations = { shape, type, keys, length, slice };
