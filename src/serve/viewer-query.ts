import { z } from 'zod';
import type { ResultLimits } from '../artifact/forge/model-lines.js';
import type { ArtifactKinds } from '../artifact/kinds/artifact-kinds.js';
import type { SpooledArtifact } from '../artifact/spooled-artifact.js';
import { SpoolforgeError, type SpoolforgeErrorCode } from '../shared/spoolforge-error.js';

/**
 * The viewer's operations and the model tool (and its `op`) each one runs: lines and grep for
 * every artifact; the shape, a JSONPath `get` or `filter` and a `slice` (a page of a document's
 * entries, one pretty line each, a minified one included) for JSON; the outline (`sections`)
 * and a `section` for Markdown. A page offers those its artifact's kind has tools for.
 *
 * @example
 * ```ts
 * viewerOperations.outline; // { tool: 'artifact_md', op: 'sections' }
 * ```
 */
export const viewerOperations = {
  read: { tool: 'artifact_read' },
  grep: { tool: 'artifact_grep' },
  shape: { tool: 'artifact_json', op: 'shape' },
  get: { tool: 'artifact_json', op: 'get' },
  filter: { tool: 'artifact_json', op: 'filter' },
  slice: { tool: 'artifact_json', op: 'slice' },
  outline: { tool: 'artifact_md', op: 'sections' },
  section: { tool: 'artifact_md', op: 'section' },
} as const satisfies Record<string, { tool: string; op?: string }>;

/**
 * One of {@link viewerOperations}.
 */
export type ViewerOperation = keyof typeof viewerOperations;

/**
 * The viewer form as submitted, kept as text so the page shows back exactly what was typed.
 *
 * @example
 * ```ts
 * const query: ViewerQuery = readViewerQuery(new URLSearchParams('op=grep&pattern=ERROR'));
 * ```
 */
export interface ViewerQuery {
  /** As given: an unknown operation is reported by {@link runViewerQuery}. */
  operation: string;
  start: string;
  end: string;
  /** The last N lines, instead of start and end. */
  last: string;
  pattern: string;
  /** Context lines before and after each match (`grep -C`). */
  context: string;
  /** A JSONPath (`get`, `shape`, `slice`) or a filter condition (`filter`). */
  path: string;
  /** A Markdown section: its heading text, or its number in the outline. */
  heading: string;
  /** The deepest heading level of the outline. */
  depth: string;
  ignoreCase: boolean;
  fixed: boolean;
  invert: boolean;
}

/**
 * Reads the viewer's query string, named like the model's tools: `op=read` with `start`, `end`
 * or `last`; `op=grep` with `pattern`, `context` and the flags `ignoreCase`, `fixed`, `invert`
 * (`1`, `on` or `true`); `shape`, `get`, `filter` with `path`, `slice` with `path`, `start`,
 * `end` (entries, 0-based); `outline` with `depth`; `section` with `heading` (text or number).
 * Without `op` the page reads the first lines.
 *
 * @example
 * ```ts
 * readViewerQuery(new URLSearchParams('op=read&start=10&end=20')).operation; // 'read'
 * ```
 */
export function readViewerQuery(parameters: URLSearchParams): ViewerQuery {
  const text = (name: string) => parameters.get(name) ?? '';
  const flag = (name: string) => ['1', 'on', 'true'].includes(text(name).toLowerCase());
  return {
    operation: text('op') || 'read',
    start: text('start'),
    end: text('end'),
    last: text('last'),
    pattern: text('pattern'),
    context: text('context'),
    path: text('path'),
    heading: text('heading'),
    depth: text('depth'),
    ignoreCase: flag('ignoreCase'),
    fixed: flag('fixed'),
    invert: flag('invert'),
  };
}

/**
 * What the viewer shows: the tool's bounded text, or why the query could not run.
 *
 * @example
 * ```ts
 * const outcome: ViewerOutcome = await runViewerQuery(artifact, query, context);
 * if ('problem' in outcome) console.error(outcome.problem);
 * ```
 */
export type ViewerOutcome = { text: string } | { problem: string };

/** Failures that are the query's fault: shown on the page with HTTP 400. */
const queryProblems: readonly SpoolforgeErrorCode[] = [
  'E_INVALID_ARGUMENT',
  'E_INVALID_TOOL_ARGS',
  'E_REGEX_INVALID',
  'E_REGEX_TIMEOUT',
];

/**
 * Answers a viewer query with the same descriptor a model's tool call runs (found with
 * the artifact's kind, arguments checked by its own zod schema), so the page shows exactly
 * what a model would see, bounded by the same limits. Bad input (an unknown operation, a
 * negative count, an invalid regex) becomes a `problem`; other failures are thrown.
 *
 * @example
 * ```ts
 * const outcome = await runViewerQuery(artifact, readViewerQuery(url.searchParams), {
 *   callId: record.id, limits: {}, signal, kinds: store.kinds,
 * });
 * ```
 */
export async function runViewerQuery(
  artifact: SpooledArtifact,
  query: ViewerQuery,
  context: { callId: string; limits: ResultLimits; signal: AbortSignal; kinds: ArtifactKinds },
): Promise<ViewerOutcome> {
  if (!Object.hasOwn(viewerOperations, query.operation)) {
    return { problem: `op must be one of ${Object.keys(viewerOperations).join(', ')}` };
  }
  const operation = query.operation as ViewerOperation;
  const toolName = viewerOperations[operation].tool;
  const descriptor = context.kinds
    .toolMethodsOf(artifact)
    .find((method) => method.name === toolName);
  if (descriptor === undefined)
    return { problem: `${artifact.kind} artifacts have no ${operation} (${toolName})` };
  const parsed = z.object(descriptor.args).safeParse(toolArguments(query));
  if (!parsed.success) {
    return {
      problem: parsed.error.issues
        .map((issue) => `${issue.path.join('.') || 'arguments'}: ${issue.message}`)
        .join('\n'),
    };
  }
  try {
    return { text: await descriptor.run(artifact, parsed.data, context) };
  } catch (error) {
    if (SpoolforgeError.isInstance(error) && queryProblems.includes(error.code)) {
      return { problem: error.message };
    }
    throw error;
  }
}

/**
 * The operations the viewer offers for `artifact`: those whose tool its kind has.
 *
 * @example
 * ```ts
 * viewerOperationsOf(artifact, store.kinds); // ['read', 'grep', 'shape', 'get', 'filter', 'slice']
 * ```
 */
export function viewerOperationsOf(
  artifact: SpooledArtifact,
  kinds: ArtifactKinds,
): ViewerOperation[] {
  const tools = new Set(kinds.toolMethodsOf(artifact).map((method) => method.name));
  return (Object.keys(viewerOperations) as ViewerOperation[]).filter((operation) =>
    tools.has(viewerOperations[operation].tool),
  );
}

/** The tool's arguments from the form, only those its operation reads; the tool's schema then judges them. */
function toolArguments(query: ViewerQuery): Record<string, unknown> {
  const path = query.path.trim() === '' ? undefined : query.path;
  switch (query.operation as ViewerOperation) {
    case 'read':
      return {
        start: formNumber(query.start),
        end: formNumber(query.end),
        last: formNumber(query.last),
      };
    case 'grep':
      return {
        pattern: query.pattern,
        ignoreCase: query.ignoreCase,
        fixed: query.fixed,
        invert: query.invert,
        context: formNumber(query.context),
      };
    case 'shape':
      return { op: 'shape', path };
    case 'get':
      return { op: 'get', path: path ?? '$' };
    case 'filter':
      return { op: 'filter', path };
    case 'slice':
      return { op: 'slice', path, start: formNumber(query.start), end: formNumber(query.end) };
    case 'outline':
      return { op: 'sections', depth: formNumber(query.depth) };
    case 'section': {
      const heading = formNumber(query.heading);
      return typeof heading === 'number'
        ? { op: 'section', index: heading }
        : { op: 'section', heading };
    }
  }
}

/** An empty field is absent; an integer is a number; anything else stays text for zod to refuse. */
function formNumber(value: string): number | string | undefined {
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  return /^[+-]?\d+$/.test(trimmed) ? Number(trimmed) : trimmed;
}
