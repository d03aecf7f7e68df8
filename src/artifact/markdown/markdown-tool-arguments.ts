import { z } from 'zod';

/**
 * The name a model calls the Markdown tool by: continuation notes and errors spell calls with it.
 *
 * @example
 * ```ts
 * continueWith(markdownToolName, { callId: 'call_2', op: 'section', index: 3 });
 * // 'artifact_md {"callId":"call_2","op":"section","index":3}'
 * ```
 */
export const markdownToolName = 'artifact_md';

/**
 * The arguments `artifact_md` takes besides `callId` and `op`, shared by its operations (each
 * reads some of them). Their meanings per operation are in the tool's description, said once.
 *
 * @example
 * ```ts
 * z.object(markdownToolArguments).parse({ depth: 2 }); // { depth: 2 }
 * ```
 */
export const markdownToolArguments = {
  heading: z.string().nullish(),
  index: z.number().int().min(1).nullish(),
  depth: z.number().int().min(1).max(6).nullish(),
  lang: z.string().nullish(),
  startLine: z.number().int().min(1).nullish(),
  endLine: z.number().int().min(1).nullish(),
};

/**
 * The parsed arguments an `artifact_md` operation gets (absent ones `null` or `undefined`).
 */
export type MarkdownToolArguments = z.output<z.ZodObject<typeof markdownToolArguments>>;
