import { readdirSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ConversationLog, FileSpoolReader, SpoolforgeError } from 'spoolforge';
import { describe, expect, it } from 'vitest';
import { tempDirectory } from '../helpers/temp-files.js';
import { openStore } from '../store/store-helpers.js';

const openDescriptors = () => readdirSync('/proc/self/fd').length;

/** What a promise rejected with, as a SpoolforgeError code. */
async function rejectionCode(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(SpoolforgeError.isInstance(error), String(error)).toBe(true);
  return (error as SpoolforgeError).code;
}

describe('FileSpoolReader closeWhenIdle', () => {
  it('keeps at most 64 idle files open, and one closed reads on, synchronously too', async () => {
    const directory = await tempDirectory();
    const before = openDescriptors();
    const readers: FileSpoolReader[] = [];
    for (let index = 0; index < 100; index++) {
      const path = join(directory, `file-${index}.txt`);
      await writeFile(path, `file ${index}\n`);
      const reader = new FileSpoolReader(path, { closeWhenIdle: true });
      expect(await reader.byteLength()).toBe(`file ${index}\n`.length);
      readers.push(reader);
    }
    expect(openDescriptors() - before).toBeLessThanOrEqual(64);
    const first = readers[0] as FileSpoolReader;
    const target = new Uint8Array(7);
    expect(first.readIntoSync(target, 0)).toBe(7);
    expect(Buffer.from(target).toString()).toBe('file 0\n');
    expect(Buffer.from(await first.read(5, 2)).toString()).toBe('0\n');
    await Promise.all(readers.map((reader) => reader.close()));
    expect(openDescriptors()).toBeLessThanOrEqual(before);
  });

  it('refuses to read on from another file put at the path while it was closed: E_IO', async () => {
    const directory = await tempDirectory();
    const path = join(directory, 'data.txt');
    await writeFile(path, 'original\n');
    const reader = new FileSpoolReader(path, { closeWhenIdle: true });
    expect(await reader.byteLength()).toBe(9);
    // Idle: 64 other readers take the pool's places.
    const others = Array.from(
      { length: 64 },
      () => new FileSpoolReader(join(directory, 'other.txt'), { closeWhenIdle: true }),
    );
    await writeFile(join(directory, 'other.txt'), 'replaced\n');
    for (const other of others) await other.byteLength();
    await rename(join(directory, 'other.txt'), path);
    expect(await rejectionCode(reader.read(0, 9))).toBe('E_IO');
    await Promise.all([reader, ...others].map((each) => each.close()));
  });
});

describe('a JSONL conversation log closed while idle', () => {
  it('fails its next append with E_IO when its file was moved away meanwhile, creating none', async () => {
    const store = await openStore();
    const log = await ConversationLog.open({ store, conversationId: 'moved' });
    await log.append({ role: 'user', content: 'hi' });
    // Idle: 64 other logs take the pool's places.
    const others = [];
    for (let index = 0; index < 64; index++) {
      others.push(await ConversationLog.open({ store, conversationId: `other-${index}` }));
    }
    const path = join(store.directory, 'conversations', 'moved.jsonl');
    await rename(path, `${path}.aside`);
    expect(await rejectionCode(log.append({ role: 'user', content: 'lost' }))).toBe('E_IO');
    expect(readdirSync(join(store.directory, 'conversations'))).not.toContain('moved.jsonl');
    await Promise.all([log, ...others].map((each) => each.close()));
  });
});
