import { z } from 'zod';
import { formatBytes } from '../../shared/format-bytes.js';
import { SpoolforgeError } from '../../shared/spoolforge-error.js';
import { BoundedText, continueWith, defaultResultLimits } from '../forge/model-lines.js';
import type { ToolMethodContext } from '../forge/tool-method-descriptor.js';
import type { JsonQueryResult } from './json-path-query.js';

/** The JSON tool's name, as models see it and as its notes and errors name it. */
export const artifactJsonName = 'artifact_json';

/** An operation of the JSON tool: what its continuation notes and errors name. */
export type JsonOp =
  | 'shape'
  | 'type'
  | 'keys'
  | 'length'
  | 'get'
  | 'filter'
  | 'pluck'
  | 'slice'
  | 'set'
  | 'insert'
  | 'delete'
  | 'extract';

const index = z.number().int().min(0).nullish();

/**
 * The JSON tool's arguments besides `callId` and `op`; each operation reads some of them. Their
 * descriptions are terse: they go with every request.
 */
export const jsonToolArgs = {
  path: z
    .string()
    .nullish()
    .describe(
      'JSONPath (default $). filter: a condition like @.status >= 500, or a path; pluck: a path in each entry, like user.id.',
    ),
  start: index.describe('slice $[start:end], 0-based.'),
  end: index,
  startIndex: index.describe('Continues a cut scan.'),
  value: z.string().nullish().describe('JSON.'),
  // What `name` is, the handle of the new output shows: no description on every request.
  name: z.string().nullish(),
};

/** The JSON tool's arguments as its operations get them. */
export type JsonToolArgs = z.output<z.ZodObject<typeof jsonToolArgs>>;

/** A scan from a model stops after this long and says where to continue. */
export const jsonScanTimeout = 30_000;

/**
 * How a model's scan runs: with the call's signal, the {@link jsonScanTimeout} deadline, and
 * from the `startIndex` that continues an earlier cut result.
 */
export function modelScan(context: ToolMethodContext, startIndex: number | null | undefined) {
  return {
    signal: context.signal,
    deadline: performance.now() + jsonScanTimeout,
    ...(startIndex == null ? {} : { startIndex }),
  };
}

/** The line budget of a result, and room for its lines. */
export function jsonText(context: ToolMethodContext) {
  const maxChars = context.limits.maxLineChars ?? defaultResultLimits.maxLineChars;
  return { text: new BoundedText(context.limits), maxChars };
}

/**
 * The call that continues a cut result: `artifact_json {"callId":"call_1","op":"slice",…}`
 * (spelled by the context's `continuation` when a tool runs this one under another name).
 */
export function continueJson(
  context: ToolMethodContext,
  op: JsonOp,
  args: Record<string, unknown>,
): string {
  const spell = context.continuation ?? continueWith;
  return spell(artifactJsonName, { callId: context.callId, op, ...args });
}

/** The `path` an operation cannot do without; absent, a model reads what to send. */
export function requirePath(op: JsonOp, path: string | null | undefined): string {
  if (path == null) {
    throw new SpoolforgeError('E_INVALID_TOOL_ARGS', `${artifactJsonName} op "${op}" needs a path`);
  }
  return path;
}

/** The closing note of a scan that stopped early (cut by the budget, or out of time). */
export function scanNote(
  op: JsonOp,
  args: Record<string, unknown>,
  result: JsonQueryResult,
  context: ToolMethodContext,
): string | undefined {
  if (result.nextIndex === undefined) return undefined;
  const next = continueJson(context, op, { ...args, startIndex: result.nextIndex });
  if (result.stopped === 'deadline') {
    return `[stopped after ${jsonScanTimeout / 1000} s before entry ${result.nextIndex}; continue with ${next}]`;
  }
  const budget = formatBytes(context.limits.maxResultBytes ?? defaultResultLimits.maxResultBytes);
  return `[cut at ${budget} before entry ${result.nextIndex}; continue with ${next}]`;
}

/** The note of a path that matched nothing: where to see the paths that exist. */
export function noMatch(path: string | null | undefined): string {
  return `No match for ${path}. ${artifactJsonName} op "shape" shows the paths that exist.`;
}

/** Plural-aware counts: `1 match`, `2 matches`. */
export function count(value: number, singular: string, plural = `${singular}s`): string {
  return `${value.toLocaleString('en-US')} ${value === 1 ? singular : plural}`;
}
