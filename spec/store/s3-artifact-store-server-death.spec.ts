import { SpoolforgeError } from 'spoolforge';
import { openS3ArtifactStore } from 'spoolforge/s3';
import { describe, expect, it } from 'vitest';
import { startS3Server } from '../helpers/s3-server.js';

const mebibyte = 1024 * 1024;

/**
 * 64 MiB of lines in 1 MiB chunks; `onChunk` sees each chunk's number before it is sent, so a
 * spec can act mid-upload.
 */
async function* bigSource(onChunk: (chunk: number) => Promise<void> | void) {
  const chunk = Buffer.from(`${'y'.repeat(1023)}\n`.repeat(1024));
  for (let sent = 0; sent < 64; sent++) {
    await onChunk(sent);
    yield chunk;
  }
}

/** What a promise rejected with (failing the spec when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<SpoolforgeError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(SpoolforgeError.isInstance(error), String(error)).toBe(true);
  return error as SpoolforgeError;
}

/** A server of the test's own (it is killed) and a store on it in small parts, few retries. */
async function storeOnOwnServer() {
  const server = await startS3Server();
  const store = await openS3ArtifactStore({
    bucket: server.bucket,
    clientConfig: { ...server.clientConfig, maxAttempts: 2 },
    partSize: 5 * mebibyte,
    queueSize: 2,
  });
  return { server, store };
}

describe('an S3 store whose server dies mid-upload', () => {
  it('rejects each of 8 streamed puts with E_REMOTE_FAILED when no signal fired', async () => {
    const { server, store } = await storeOnOwnServer();
    let closing: Promise<void> | undefined;
    try {
      // Once every put has sent 12 MiB (two parts uploaded or under way), the server goes.
      let started = 0;
      const puts = Array.from({ length: 8 }, () =>
        store.put(
          bigSource(async (chunk) => {
            if (chunk === 12) started += 1;
            if (started === 8) closing ??= server.close();
          }),
        ),
      );
      const errors = await Promise.all(puts.map(rejection));
      expect(closing).toBeDefined();
      expect(errors.map((error) => error.code)).toEqual(Array(8).fill('E_REMOTE_FAILED'));
      // The cause is the request's own failure, not the body stream torn down after it.
      for (const error of errors) expect((error.cause as Error).name).not.toBe('AbortError');
    } finally {
      await (closing ?? server.close());
    }
  });

  it('rejects with E_ABORTED only when the caller’s signal fired as the server died', async () => {
    const { server, store } = await storeOnOwnServer();
    let closing: Promise<void> | undefined;
    try {
      const controller = new AbortController();
      const put = store.put(
        bigSource((chunk) => {
          if (chunk !== 12) return;
          closing = server.close();
          controller.abort(new Error('the caller gave up'));
        }),
        { signal: controller.signal },
      );
      const error = await rejection(put);
      expect(error.code).toBe('E_ABORTED');
      expect((error.cause as Error).message).toBe('the caller gave up');
    } finally {
      await (closing ?? server.close());
    }
  });
});
