import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, readdir, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ArtifactStore } from 'spoolforge';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDirectory } from '../helpers/temp-files.js';

const run = promisify(execFile);
const distEntry = fileURLToPath(new URL('../../dist/index.js', import.meta.url));
const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

/** Writes an ES module that has `store` (the ArtifactStore in argv[2]) in scope, and its path. */
async function childScript(body: string): Promise<string> {
  const path = join(await tempDirectory(), 'child.mjs');
  await writeFile(
    path,
    `import { ArtifactStore } from ${JSON.stringify(distEntry)};\n` +
      'const store = await ArtifactStore.open(process.argv[2]);\n' +
      body,
  );
  return path;
}

/** The pid of a process that has exited (and so is dead, barring pid reuse). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await once(child, 'exit');
  return child.pid ?? 0;
}

/** Resolves once the child has printed `text` on stdout. */
async function printed(child: ChildProcess, text: string): Promise<void> {
  let output = '';
  for await (const chunk of child.stdout ?? []) {
    output += String(chunk);
    if (output.includes(text)) return;
  }
  throw new Error(`child ended without printing ${text}`);
}

describe('ArtifactStore across processes', () => {
  it('shows nothing of a put killed midway, and gc removes its temp file', async () => {
    const directory = join(await tempDirectory(), 'store');
    const before = await (await ArtifactStore.open(directory)).put('done\n', { name: 'done' });
    const script = await childScript(`
      async function* slowly() {
        const mebibyte = Buffer.alloc(1024 * 1024, 'a line of a slow log\\n');
        for (let chunk = 0; ; chunk++) {
          yield mebibyte;
          if (chunk === 3) process.stdout.write('started\\n');
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
      await store.put(slowly(), { name: 'half' });
    `);
    const child = spawn(process.execPath, [script, directory], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    await printed(child, 'started');
    const temporary = (await readdir(join(directory, 'tmp'))).map((name) =>
      join(directory, 'tmp', name),
    );
    expect(temporary).toEqual([
      expect.stringMatching(new RegExp(`\\.${child.pid}\\.data\\.partial$`)),
    ]);
    expect((await stat(temporary[0] ?? '')).size).toBeGreaterThanOrEqual(4 * 1024 * 1024);
    child.kill('SIGKILL');
    await once(child, 'exit');

    const store = await ArtifactStore.open(directory);
    expect((await store.list()).map((record) => record.id)).toEqual([before.id]);
    expect(await store.info('half')).toBeUndefined();
    const report = await store.gc();
    expect(report.temporary).toEqual(temporary);
    expect(report.orphans).toEqual([]);
    expect(await readdir(join(directory, 'tmp'))).toEqual([]);
    expect((await store.info('done'))?.id).toBe(before.id);
  });

  it('finds by name in one process what another process put', async () => {
    const directory = join(await tempDirectory(), 'store');
    const script = await childScript(`
      const lines = Array.from({ length: 5000 }, (_, line) => line % 1000 === 7 ? 'ERROR disk full ' + line : 'ok ' + line);
      const record = await store.put(lines.join('\\n') + '\\n', { name: 'nightly build', metadata: { pid: process.pid } });
      process.stdout.write(record.id);
    `);
    const { stdout: id } = await run(process.execPath, [script, directory]);

    const store = await ArtifactStore.open(directory);
    const record = await store.info('nightly build');
    expect(record).toMatchObject({ id, lineCount: 5000, metadata: { pid: expect.any(Number) } });
    expect(record?.metadata.pid).not.toBe(process.pid);
    await using artifact = await store.get('nightly build');
    expect((await artifact.head(2)).map((line) => line.text)).toEqual(['ok 0', 'ok 1']);
    expect((await artifact.tail(1)).map((line) => line.text)).toEqual(['ok 4999']);
    const { lines } = await artifact.grep('^ERROR');
    expect(lines.map((line) => line.lineNumber)).toEqual([7, 1007, 2007, 3007, 4007]);
  });

  it('gc removes spool directories of dead processes only, and never follows a symbolic link', async () => {
    const store = await ArtifactStore.open(join(await tempDirectory(), 'store'));
    const spoolDirectory = await tempDirectory();
    const outside = await tempDirectory();
    const outsideFile = join(outside, 'precious.txt');
    await writeFile(outsideFile, 'keep me');
    const old = new Date(Date.now() - 7 * 24 * 60 * 60 * 1000);
    await utimes(outsideFile, old, old);

    const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)']);
    children.push(sleeper);
    const dead = await deadPid();
    const deadDirectory = join(spoolDirectory, `spoolforge-${dead}-Ab12Cd`);
    const kept = [
      `spoolforge-${sleeper.pid}-Ef34Gh`,
      `spoolforge-${process.pid}-Ij56Kl`,
      `spoolforge-${dead}-toolongname`,
      `spoolforge-spec-${dead}`,
    ];
    for (const name of [deadDirectory, ...kept.map((entry) => join(spoolDirectory, entry))]) {
      await mkdir(name);
      await writeFile(join(name, 'spool-1'), 'spilled');
    }
    await symlink(outside, join(spoolDirectory, `spoolforge-${dead}-Mn78Op`));

    // Links planted in the store: a file, a whole folder, and the temp folder itself.
    const objects = join(store.directory, 'objects');
    await symlink(outsideFile, join(objects, `${'d'.repeat(22)}.data`));
    await symlink(outsideFile, join(objects, `${'e'.repeat(22)}.msgpack`));
    await mkdir(join(outside, 'objects'));
    await writeFile(join(outside, 'objects', `${'f'.repeat(22)}.data`), 'outside orphan');
    await writeFile(join(outside, `${'g'.repeat(22)}.${dead}.data.partial`), 'outside temp');
    await symlink(outside, join(store.directory, 'planted'));
    await symlink(join(outside, 'objects'), join(store.directory, 'linked-objects'));
    await run('rmdir', [join(store.directory, 'tmp')]);
    await symlink(outside, join(store.directory, 'tmp'));

    // Just touched: it may belong to a live process in another pid namespace; kept for now.
    expect((await store.gc({ spoolDirectory })).spoolDirectories).toEqual([]);
    const report = await store.gc({ spoolDirectory, graceMilliseconds: 0 });
    expect(report).toEqual({
      expired: [],
      orphans: [],
      temporary: [],
      spoolDirectories: [deadDirectory],
    });
    expect((await readdir(spoolDirectory)).sort()).toEqual(
      [...kept, `spoolforge-${dead}-Mn78Op`].sort(),
    );
    expect((await readdir(outside)).sort()).toEqual(
      ['objects', 'precious.txt', `${'g'.repeat(22)}.${dead}.data.partial`].sort(),
    );
    expect(await readdir(join(outside, 'objects'))).toEqual([`${'f'.repeat(22)}.data`]);
    // Nor will a store open with its temp folder sent elsewhere.
    await expect(ArtifactStore.open(store.directory)).rejects.toMatchObject({ code: 'E_IO' });
  });
});
