import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

const directories: string[] = [];

afterEach(async () => {
  await Promise.all(
    directories.splice(0).map((path) => rm(path, { recursive: true, force: true })),
  );
});

/** A fresh directory removed after the test. */
export async function tempDirectory(): Promise<string> {
  const path = await mkdtemp(join(tmpdir(), 'spoolforge-spec-'));
  directories.push(path);
  return path;
}

/** Writes `content` to a new file in a fresh directory and returns its path. */
export async function tempFile(content: string | Uint8Array, name = 'input.txt'): Promise<string> {
  const path = join(await tempDirectory(), name);
  await writeFile(path, content);
  return path;
}
