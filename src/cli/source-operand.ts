import type { HttpSpoolReaderOptions } from '../spool/http/http-spool-reader-options.js';
import type { CliContext } from './cli-context.js';
import { type CliSource, openSource } from './cli-source.js';
import {
  type OptionSpec,
  type ParsedArguments,
  parseCount,
  usageError,
} from './parse-arguments.js';

/**
 * The options every command takes for its http(s) SOURCEs: `--timeout SECONDS` (per request,
 * for the response headers or the next body chunk) and `--retries N`.
 *
 * @example
 * ```ts
 * const { options } = parseArguments(argv, [...ownOptions, ...sourceOptions]);
 * ```
 */
export const sourceOptions: readonly OptionSpec[] = [
  { long: 'timeout', takesValue: true },
  { long: 'retries', takesValue: true },
];

/**
 * The HTTP reader's timeout and retries from `--timeout`/`--retries`, else from the
 * `SPOOLFORGE_HTTP_TIMEOUT`/`SPOOLFORGE_HTTP_RETRIES` environment variables, else its defaults.
 *
 * @example
 * ```ts
 * httpOptions(new Map([['timeout', '0.5']]), {}); // { timeout: 500 }
 * ```
 */
export function httpOptions(
  options: ReadonlyMap<string, string>,
  environment: NodeJS.ProcessEnv = process.env,
): Pick<HttpSpoolReaderOptions, 'timeout' | 'retries'> {
  const timeout = options.get('timeout') ?? environment.SPOOLFORGE_HTTP_TIMEOUT;
  const retries = options.get('retries') ?? environment.SPOOLFORGE_HTTP_RETRIES;
  const seconds = timeout === undefined ? undefined : Number(timeout);
  if (seconds !== undefined && !(/^\d*\.?\d+$/.test(timeout ?? '') && seconds > 0))
    throw usageError(`invalid timeout: '${timeout}' (seconds, more than 0)`);
  return {
    ...(seconds === undefined ? {} : { timeout: Math.ceil(seconds * 1000) }),
    ...(retries === undefined ? {} : { retries: parseCount(retries, 'retries').value }),
  };
}

/**
 * Checks a command got exactly the operands it takes, opens the last one as SOURCE (with the
 * `sourceOptions` given), runs `body` and closes the source whatever happens.
 *
 * @example
 * ```ts
 * return withSource(parseArguments(argv, sourceOptions), ['SOURCE'], context, async (source) => 0);
 * ```
 */
export async function withSource(
  { operands, options }: ParsedArguments,
  names: readonly string[],
  context: CliContext,
  body: (source: CliSource, operands: readonly string[]) => Promise<number>,
): Promise<number> {
  if (operands.length < names.length)
    throw usageError(`missing ${names.slice(operands.length).join(' ')}`);
  if (operands.length > names.length) throw usageError(`extra operand '${operands[names.length]}'`);
  const source = await openSource(
    operands.at(-1) ?? '-',
    () => context.stdin,
    httpOptions(options),
  );
  try {
    return await body(source, operands);
  } finally {
    await source.close();
  }
}
