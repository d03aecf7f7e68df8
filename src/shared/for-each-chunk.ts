import { raceAbort } from './abortable.js';
import { throwIfAborted } from './spoolforge-error.js';

/**
 * Hands each chunk of `source` to `consume`, one at a time and in order, and settles once the
 * source ends (or rejects with what `consume` or the source threw). `signal` rejects it with
 * `E_ABORTED` at once, even while the source is silent; the source is then closed (its
 * `return()`), as it is when `consume` throws, so it can release a file descriptor or a socket.
 *
 * It is a chain of callbacks, not a `for await` loop: a suspended loop keeps the chunk it last
 * handled in its frame while the source makes the next, so a chunk the source allocated afresh
 * survives the young-generation GC that allocation triggers and lingers until a full GC (tens
 * of MiB of dead 1 MiB chunks on a multi-GB stream). Here nothing holds a chunk once `consume`
 * is done with it.
 *
 * @example
 * ```ts
 * await forEachChunk(createReadStream('build.log'), (chunk) => writer.write(chunk), { signal });
 * ```
 */
export function forEachChunk<T>(
  source: AsyncIterable<T>,
  consume: (chunk: T) => Promise<void> | void,
  options: { signal?: AbortSignal | undefined } = {},
): Promise<void> {
  const { signal } = options;
  const iterator = source[Symbol.asyncIterator]();
  return new Promise<void>((resolve, reject) => {
    const fail = (error: unknown) => {
      void iterator.return?.()?.catch?.(() => undefined);
      reject(error);
    };
    const consumed = (result: IteratorResult<T>) => {
      if (result.done) return resolve();
      // `step` returns nothing: each chunk's promises settle on their own, never chained.
      return Promise.resolve(consume(result.value)).then(step);
    };
    const step = () => {
      try {
        throwIfAborted(signal);
      } catch (error) {
        return fail(error);
      }
      raceAbort(iterator.next(), signal).then(consumed).catch(fail);
    };
    step();
  });
}
