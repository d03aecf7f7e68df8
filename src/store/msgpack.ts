import { createRequire } from 'node:module';

let loadedMsgpack: typeof import('@msgpack/msgpack') | undefined;

/**
 * @msgpack/msgpack, loaded by the store's first use rather than with the library (a synchronous
 * require, since encoding is synchronous; the package is stateless, so its CommonJS copy is
 * as good as the ES one).
 *
 * @example
 * ```ts
 * msgpack().encode({ a: 1 });
 * ```
 */
export function msgpack(): typeof import('@msgpack/msgpack') {
  loadedMsgpack ??= createRequire(import.meta.url)(
    '@msgpack/msgpack',
  ) as typeof import('@msgpack/msgpack');
  return loadedMsgpack;
}
