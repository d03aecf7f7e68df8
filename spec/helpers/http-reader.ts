import { SpoolforgeError } from 'spoolforge';
import { expect } from 'vitest';

/** `count` numbered lines, an ERROR every 97th, the rest INFO, of varied lengths. */
export const numberedLog = (count: number) =>
  Array.from(
    { length: count },
    (_, line) => `${line + 1} ${line % 97 === 0 ? 'ERROR' : 'INFO'} ${'x'.repeat(line % 80)}\n`,
  ).join('');

/** Rejects with a SpoolforgeError of `code`, returning it for more checks. */
export async function failure(promise: Promise<unknown>, code: string): Promise<SpoolforgeError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(SpoolforgeError.isInstance(error), String(error)).toBe(true);
  expect((error as SpoolforgeError).code, (error as Error).message).toBe(code);
  return error as SpoolforgeError;
}

/** Every chunk of `chunks` in one buffer. */
export async function collect(chunks: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of chunks) parts.push(Buffer.from(chunk));
  return Buffer.concat(parts);
}

/** Fast retries so fault tests do not wait on real backoff. */
export const quick = { retryDelay: 1, maxRetryDelay: 2_000 };
