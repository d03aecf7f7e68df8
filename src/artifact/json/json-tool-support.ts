import { z } from 'zod';
import { formatBytes } from '../../shared/format-bytes.js';
import { BoundedText, continueWith, defaultResultLimits } from '../forge/model-lines.js';
import type { ToolMethodContext } from '../forge/tool-method-descriptor.js';
import type { JsonQueryResult } from './json-path-query.js';

/** A scan from a model stops after this long and says where to continue. */
export const jsonScanTimeout = 30_000;

/** The arguments the JSON tools share. */
export const jsonArgs = {
  path: z
    .string()
    .nullish()
    .describe(
      "A JSONPath: $ is the whole document, $[0] the first element, $[*].user.id a field of every element, $['a b'] a key with spaces, $..id at any depth (default $).",
    ),
  startIndex: z
    .number()
    .int()
    .min(0)
    .nullish()
    .describe('Skip the top-level entries before this 0-based index: continues a cut result.'),
};

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

/** The closing note of a scan that stopped early (cut by the budget, or out of time). */
export function scanNote(
  toolName: string,
  args: Record<string, unknown>,
  result: JsonQueryResult,
  context: ToolMethodContext,
): string | undefined {
  if (result.nextIndex === undefined) return undefined;
  const next = continueWith(toolName, {
    ...args,
    callId: context.callId,
    startIndex: result.nextIndex,
  });
  if (result.stopped === 'deadline') {
    return `[stopped after ${jsonScanTimeout / 1000} s before entry ${result.nextIndex}; continue with ${next}]`;
  }
  const budget = formatBytes(context.limits.maxResultBytes ?? defaultResultLimits.maxResultBytes);
  return `[cut at ${budget} before entry ${result.nextIndex}; continue with ${next}]`;
}

/** Plural-aware counts: `1 match`, `2 matches`. */
export function count(value: number, singular: string, plural = `${singular}s`): string {
  return `${value.toLocaleString('en-US')} ${value === 1 ? singular : plural}`;
}
