import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { SpooledArtifact, SpoolWriter, spool } from 'spoolforge';
import { describe, expect, it } from 'vitest';
import { cliPath } from '../helpers/run-cli.js';
import { tempDirectory } from '../helpers/temp-files.js';

const run = promisify(execFile);

/** The spool files under a test's TMPDIR. */
async function spoolFiles(parent: string): Promise<string[]> {
  const directories = await readdir(parent);
  const files = await Promise.all(directories.map((name) => readdir(join(parent, name))));
  return files.flat();
}

describe('SpoolWriter', () => {
  it('keeps small spools in memory and spills past the threshold to a 0600 file in a 0700 directory', async () => {
    const parent = await tempDirectory();
    const writer = new SpoolWriter({ memoryThreshold: 1000, tempDirectory: parent });
    await writer.write('x'.repeat(999));
    expect(writer.filePath).toBeUndefined();
    await writer.write('yy\n');
    const path = writer.filePath;
    expect(path).toBeDefined();
    expect((await stat(path ?? '')).mode & 0o777).toBe(0o600);
    expect((await stat(dirname(path ?? ''))).mode & 0o777).toBe(0o700);
    await writer.end();
    expect(writer.lineIndex.lineCount).toBe(1);
    await writer.close();
    expect(existsSync(path ?? '')).toBe(false);
  });

  it('keeps a surrogate pair split across strings whole, and a lone half in its place', async () => {
    const writer = new SpoolWriter();
    await writer.write('smile \uD83D');
    await writer.write('\uDE00\nalone \uD83D');
    await writer.write(new TextEncoder().encode('|bytes\n'));
    await writer.end();
    const bytes = await writer.reader().read(0, 100);
    expect(new TextDecoder().decode(bytes)).toBe('smile 😀\nalone \uFFFD|bytes\n');
    await writer.close();
  });

  it('answers queries on what has arrived while writing goes on', async () => {
    const writer = new SpoolWriter({ memoryThreshold: 64, lineIndexStride: 16 });
    const artifact = SpooledArtifact.fromWriter(writer);
    await writer.write('first line\nsecond li');
    expect(await artifact.lineCount()).toBe(2);
    expect(await artifact.tail(1)).toEqual([{ lineNumber: 1, text: 'second li' }]);
    await writer.write(`ne\n${'filler\n'.repeat(50)}`);
    expect(writer.filePath).toBeDefined();
    expect(await artifact.lineCount()).toBe(52);
    expect(await artifact.cat(1, 3)).toEqual([
      { lineNumber: 1, text: 'second line' },
      { lineNumber: 2, text: 'filler' },
    ]);
    expect((await artifact.grep('second')).lines).toEqual([
      { lineNumber: 1, text: 'second line', isMatch: true },
    ]);
    await writer.end();
    await expect(writer.write('late')).rejects.toMatchObject({ code: 'E_SPOOL_CLOSED' });
    await artifact.close();
    await expect(artifact.head(1)).rejects.toMatchObject({ code: 'E_SPOOL_CLOSED' });
  });

  it('abort mid-spool rejects with E_ABORTED and leaves no temp file', async () => {
    const parent = await tempDirectory();
    const controller = new AbortController();
    async function* endless() {
      for (let chunk = 0; ; chunk++) {
        if (chunk === 20) setTimeout(() => controller.abort(new Error('user gave up')), 5);
        yield 'log line that keeps coming\n'.repeat(100);
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    }
    await expect(
      spool(endless(), { memoryThreshold: 4096, tempDirectory: parent, signal: controller.signal }),
    ).rejects.toMatchObject({ code: 'E_ABORTED' });
    const [privateDirectory] = await readdir(parent);
    expect(privateDirectory).toMatch(/^spoolforge-/);
    expect(await readdir(`${parent}/${privateDirectory}`)).toEqual([]);
  });

  it('holds no spooled chunk after it is written, even with an abort signal', async () => {
    // 200 MiB in 4 MiB chunks through spool() with a signal, then a full GC: what stays is the
    // spool's own memory, not the stream (a Promise.race against one long-lived abort promise
    // once kept every chunk alive).
    const script = `
      import { spool } from ${JSON.stringify(new URL('../../dist/index.js', import.meta.url).href)};
      async function* chunks() { for (let i = 0; i < 50; i++) yield Buffer.alloc(4 * 1024 * 1024, 97); }
      const artifact = await spool(chunks(), { signal: new AbortController().signal, tempDirectory: ${JSON.stringify(await tempDirectory())} });
      // ArrayBuffer memory is swept on a background thread after a GC: two, a turn apart, let
      // the sweeper catch up under load; a chunk still referenced survives any number.
      globalThis.gc();
      await new Promise((resolve) => setTimeout(resolve, 50));
      globalThis.gc();
      console.log(process.memoryUsage().arrayBuffers);
      await artifact.close();
    `;
    const { stdout } = await run(process.execPath, [
      '--expose-gc',
      '--input-type=module',
      '-e',
      script,
    ]);
    expect(Number(stdout.trim())).toBeLessThan(32 * 1024 * 1024);
  });

  it('aborts a source that never waits once it spills to disk', async () => {
    let produced = 0;
    async function* inMemory() {
      for (; produced < 8192; produced++) yield Buffer.alloc(64 * 1024, 97); // 512 MiB
    }
    await expect(spool(inMemory(), { signal: AbortSignal.timeout(50) })).rejects.toMatchObject({
      code: 'E_ABORTED',
    });
    expect(produced).toBeLessThan(8192);
  });

  it('aborts a source that has gone silent', async () => {
    const controller = new AbortController();
    async function* silent() {
      yield 'one\n';
      await new Promise(() => {});
    }
    setTimeout(() => controller.abort(), 20);
    await expect(spool(silent(), { signal: controller.signal })).rejects.toMatchObject({
      code: 'E_ABORTED',
    });
  });

  it.each(['SIGTERM', 'SIGINT'] as const)(
    'removes the spool when the CLI is killed by %s',
    async (signal) => {
      const parent = await tempDirectory();
      const child = spawn(process.execPath, [cliPath, 'tail', '-n', '1', '-'], {
        env: { ...process.env, TMPDIR: parent },
        stdio: ['pipe', 'ignore', 'ignore'],
      });
      child.stdin.on('error', () => {}); // EPIPE once the CLI is gone
      child.stdin.write('a log line that spills to disk\n'.repeat(200_000));
      // The stream never ends, so the CLI sits there with its spool on disk until the signal.
      for (let waited = 0; (await spoolFiles(parent)).length === 0 && waited < 100; waited++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(await spoolFiles(parent)).toHaveLength(1);
      const exited = new Promise((resolve) =>
        child.on('exit', (_code, received) => resolve(received)),
      );
      child.kill(signal);
      expect(await exited).toBe(signal);
      expect(await readdir(parent)).toEqual([]);
    },
  );

  it('removes its private directory when the process exits without closing', async () => {
    const parent = await tempDirectory();
    const script = `
      import { spool } from ${JSON.stringify(new URL('../../dist/index.js', import.meta.url).href)};
      const artifact = await spool('z'.repeat(10000), { memoryThreshold: 100, tempDirectory: ${JSON.stringify(parent)} });
      console.log(await artifact.byteLength());
    `;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script]);
    expect(stdout.trim()).toBe('10000');
    expect(await readdir(parent)).toEqual([]);
  });
});
