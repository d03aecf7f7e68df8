import { z } from 'zod';
import { strictToolInput } from '../../artifact/forge/forge-tools.js';
import { continueWith, type ResultLimits } from '../../artifact/forge/model-lines.js';
import type { ToolMethodDescriptor } from '../../artifact/forge/tool-method-descriptor.js';
import type { ArtifactKinds } from '../../artifact/kinds/artifact-kinds.js';
import type { SpooledArtifact } from '../../artifact/spooled-artifact.js';
import { quoteInput } from '../../shared/quote-input.js';
import { SpoolforgeError } from '../../shared/spoolforge-error.js';
import { type ArtifactTool, artifactTool } from '../../tools/artifact-tool.js';
import type { FileTargets } from './file-targets.js';

/**
 * The `path` argument of every file tool.
 *
 * @example
 * ```ts
 * strictToolInput({ path: pathArgument });
 * ```
 */
export const pathArgument = z
  .string()
  .describe('A file, absolute or relative to the first root; or an allowed URL.');

/**
 * A descriptor's own argument that the file's `path` takes the place of is renamed (the JSON
 * tool's JSONPath).
 */
const renamedArguments: Record<string, string> = { path: 'jsonPath' };

/** `artifact_read` → `file_read`: the file tools' names for the forged tools they run. */
function fileToolName(name: string): string {
  return name.replace(/^artifact_/, 'file_');
}

function renameKeys(args: Record<string, unknown>, names: Record<string, string>) {
  return Object.fromEntries(Object.entries(args).map(([key, value]) => [names[key] ?? key, value]));
}

const restoredArguments = Object.fromEntries(
  Object.entries(renamedArguments).map(([from, to]) => [to, from]),
);

/** Continuation notes spell the file tools: `file_read {"path":"…","start":813}`. */
function continuation(toolName: string, { callId, ...args }: Record<string, unknown>): string {
  return continueWith(fileToolName(toolName), {
    path: callId,
    ...renameKeys(args, renamedArguments),
  });
}

/**
 * The message of an error a descriptor threw, in the file tools' names (`artifact_grep` →
 * `file_grep`; the JSON tool's `path` → `jsonPath`).
 */
function inFileTerms(error: unknown, renamesPath: boolean): unknown {
  if (!SpoolforgeError.isInstance(error)) return error;
  let message = error.message.replace(/\bartifact_(read|grep|json|md)\b/g, 'file_$1');
  // The argument's name as a word, not a file name (`path.json`) or a key of a spelled call.
  if (renamesPath) message = message.replace(/(?<![\w"./-])path(?![\w"./-])/g, 'jsonPath');
  return new SpoolforgeError(error.code, message, { cause: error });
}

/**
 * A result's notes that name a tool without spelling a call (`artifact_grep shows the text
 * around a match`, `see artifact_json op "type"`), in the file tools' names. Only these
 * phrases: the rest of a result is the file's own text.
 */
function inFileNotes(text: string): string {
  return text
    .replaceAll('; artifact_grep shows the text', '; file_grep shows the text')
    .replaceAll('artifact_json op "', 'file_json op "');
}

/**
 * One of the forged query tools (`artifact_read`, `artifact_grep`, `artifact_json`,
 * `artifact_md`) as a file tool: the same descriptor, arguments, bounds and numbered lines, with
 * `path` for `callId`. A file whose kind does not offer the query (`file_json` on a log) is an
 * error naming the ones that do.
 *
 * @example
 * ```ts
 * const fileGrep = fileQueryTool(method, targets, {});
 * ```
 */
export function fileQueryTool(
  method: ToolMethodDescriptor<SpooledArtifact>,
  targets: FileTargets,
  limits: ResultLimits,
): ArtifactTool<never> {
  const name = fileToolName(method.name);
  const renamesPath = Object.keys(method.args).some((key) => key in renamedArguments);
  return artifactTool({
    name,
    description: method.description.replace(
      /\b([Aa]) spooled ((?:[\w/]+ )?)output/g,
      (_match, article: string, kind: string) => `${article} ${kind}file`,
    ),
    inputSchema: strictToolInput({
      path: pathArgument,
      ...renameKeys(method.args, renamedArguments),
    }),
    handler: async ({ path, ...input }: { path: string }, { signal }) =>
      targets.use(path, signal, async ({ artifact, kind }) => {
        if (!kind.toolMethods.some((each) => each.name === method.name)) {
          const offered = kind.toolMethods.map((each) => fileToolName(each.name));
          throw new SpoolforgeError(
            'E_INVALID_TOOL_ARGS',
            `${name} does not query ${quoteInput(path)}: it is ${kind.name} (by its first 64 KiB); query it with ${offered.join(', ')}`,
          );
        }
        const args = renameKeys(input, restoredArguments);
        try {
          const text = await method.run(artifact, args as never, {
            callId: path,
            limits,
            signal,
            continuation,
          });
          return inFileNotes(text);
        } catch (error) {
          throw inFileTerms(error, renamesPath);
        }
      }),
  }) as ArtifactTool<never>;
}

/**
 * The forged query tools of every kind in `kinds`, once each in the order kinds bring them
 * (`file_read`, `file_grep`, then `file_json`, `file_md` for the built-in kinds).
 *
 * @example
 * ```ts
 * fileQueryTools(defaultArtifactKinds, targets, {}).map((tool) => tool.name);
 * ```
 */
export function fileQueryTools(
  kinds: ArtifactKinds,
  targets: FileTargets,
  limits: ResultLimits,
): ArtifactTool<never>[] {
  const methods = new Map<string, ToolMethodDescriptor<SpooledArtifact>>();
  for (const kind of kinds.list())
    for (const method of kind.toolMethods)
      if (!methods.has(method.name)) methods.set(method.name, method);
  // A file server keeps no new outputs: each query without the operations that make them.
  return [...methods.values()].map((method) =>
    fileQueryTool(method.textOnly ?? method, targets, limits),
  );
}
