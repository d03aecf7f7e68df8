import { join } from 'node:path';
import { ArtifactStore, SpoolforgeError } from 'spoolforge';
import { expect } from 'vitest';
import { tempDirectory } from '../helpers/temp-files.js';

/** The SpoolforgeError code `promise` rejects with; anything else fails the test. */
export async function errorCode(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(SpoolforgeError.isInstance(error)).toBe(true);
  return (error as SpoolforgeError).code;
}

/** A new store in a fresh directory removed after the test. */
export async function openStore(options: Parameters<typeof ArtifactStore.open>[1] = {}) {
  return ArtifactStore.open(join(await tempDirectory(), 'store'), options);
}
