import type { CliContext } from './cli-context.js';
import { type CliSource, openSource } from './cli-source.js';
import { usageError } from './parse-arguments.js';

/**
 * Checks a command got exactly the operands it takes, opens the last one as SOURCE, runs `body`
 * and closes the source whatever happens.
 *
 * @example
 * ```ts
 * return withSource(operands, ['SOURCE'], context, async (source) => 0);
 * ```
 */
export async function withSource(
  operands: readonly string[],
  names: readonly string[],
  context: CliContext,
  body: (source: CliSource, operands: readonly string[]) => Promise<number>,
): Promise<number> {
  if (operands.length < names.length)
    throw usageError(`missing ${names.slice(operands.length).join(' ')}`);
  if (operands.length > names.length) throw usageError(`extra operand '${operands[names.length]}'`);
  const source = await openSource(operands.at(-1) ?? '-', () => context.stdin);
  try {
    return await body(source, operands);
  } finally {
    await source.close();
  }
}
