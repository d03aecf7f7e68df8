import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDirectory } from '../helpers/temp-files.js';
import { freshPrefix, listKeys, useS3Server } from './s3-store-helpers.js';

const run = promisify(execFile);
const s3Entry = fileURLToPath(new URL('../../dist/store/s3/index.js', import.meta.url));
const children: ChildProcess[] = [];
const s3 = useS3Server();

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

/**
 * Writes an ES module with `store` in scope: an S3 store with a client of its own (another
 * machine), on the prefix in argv[2]; JSON options for the store in argv[3].
 */
async function childScript(body: string): Promise<string> {
  const server = s3();
  const path = join(await tempDirectory(), 'child.mjs');
  await writeFile(
    path,
    `import { openS3ArtifactStore } from ${JSON.stringify(s3Entry)};\n` +
      'const store = await openS3ArtifactStore({ bucket: ' +
      `${JSON.stringify(server.bucket)}, prefix: process.argv[2], ` +
      `clientConfig: ${JSON.stringify(server.clientConfig)}, ...JSON.parse(process.argv[3] ?? '{}') });\n` +
      body,
  );
  return path;
}

async function runChild(body: string, prefix: string): Promise<string> {
  const { stdout } = await run(process.execPath, [await childScript(body), prefix]);
  return stdout;
}

describe('an S3 store shared by two machines (processes with their own clients)', () => {
  it('one puts, the other lists, gets, tails and collects', async () => {
    const prefix = freshPrefix();
    const put = await runChild(
      `async function* lines() {
        for (let block = 0; block < 12; block++) {
          const lines = [];
          for (let line = 0; line < 10_000; line++) lines.push(\`block \${block} line \${line}\`);
          yield lines.join('\\n') + '\\n';
        }
      }
      const record = await store.put(lines(), { name: 'shared', ttl: 60_000 });
      process.stdout.write(JSON.stringify(record));`,
      prefix,
    );
    const record = JSON.parse(put);
    expect(record.lineCount).toBe(120_000);
    const seen = JSON.parse(
      await runChild(
        `const [listed] = await store.list();
        const artifact = await store.get('shared');
        const tail = (await artifact.tail(2)).map((line) => line.text);
        const stats = artifact.reader.stats;
        await artifact.close();
        const report = await store.gc({ graceMilliseconds: 0 });
        process.stdout.write(JSON.stringify({ listed, tail, report, stats }));`,
        prefix,
      ),
    );
    expect(seen.listed).toEqual(record);
    expect(seen.tail).toEqual(['block 11 line 9998', 'block 11 line 9999']);
    expect(seen.stats.requests).toBe(2);
    expect(seen.report).toMatchObject({ expired: [], orphans: [], temporary: [] });
    expect(await listKeys(s3(), `${prefix}uploads/`)).toEqual([]);
  });

  it('shows nothing of a put killed midway, and gc removes its marker once the grace has passed', async () => {
    const prefix = freshPrefix();
    const script = await childScript(`
      async function* slowly() {
        const mebibyte = Buffer.alloc(1024 * 1024, 'a line of a slow log\\n');
        for (let chunk = 0; ; chunk++) {
          yield mebibyte;
          if (chunk === 12) process.stdout.write('started\\n');
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
      await store.put(slowly(), { name: 'half' });
    `);
    const child = spawn(
      process.execPath,
      [script, prefix, JSON.stringify({ heartbeatMilliseconds: 1_000 })],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    children.push(child);
    let output = '';
    for await (const chunk of child.stdout ?? []) {
      output += String(chunk);
      if (output.includes('started')) break;
    }
    // Killed once a part is on its way, right after a heartbeat: s3rver drops an object whose
    // PUT is cut off (S3 keeps the previous version), which would take the marker with it.
    const partSent = () => s3().requests.some((request) => request.url.includes('partNumber='));
    const beats = () =>
      s3().requests.filter((request) => request.url.includes('/uploads/') && request.finished);
    while (!partSent()) await new Promise((resolve) => setTimeout(resolve, 5));
    const seen = beats().length;
    while (beats().length === seen) await new Promise((resolve) => setImmediate(resolve));
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const marker = `${prefix}uploads/`;
    expect(await listKeys(s3(), marker)).toHaveLength(1);

    const gc = `const report = await store.gc({ graceMilliseconds: 3_000 });
      process.stdout.write(JSON.stringify({ report, listed: await store.list() }));`;
    const early = JSON.parse(await runChild(gc, prefix));
    expect(early.listed).toEqual([]);
    expect(early.report.temporary).toEqual([]); // its heartbeat is still fresh
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    const late = JSON.parse(await runChild(gc, prefix));
    expect(late.listed).toEqual([]);
    expect(late.report.temporary).toEqual([expect.stringContaining(marker)]);
    expect(late.report.unabortedUploads).toHaveLength(1); // s3rver refuses AbortMultipartUpload
    expect(await listKeys(s3(), prefix)).toEqual([]);
  });
});
