import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tempFile } from '../helpers/temp-files.js';

const index = fileURLToPath(new URL('../../dist/index.js', import.meta.url));

describe('worker threads under the command line of their parent', () => {
  it('greps with a regex in a process started as node --input-type=module -e', async () => {
    // Workers inherit process.execArgv, and refuse --input-type: every regex grep failed there.
    const script = `
      import { spool } from ${JSON.stringify(index)};
      const artifact = await spool('x\\nab\\naab\\n');
      console.log(JSON.stringify((await artifact.grep('a+b$')).lines.map((line) => line.lineNumber)));
      await artifact.close();
    `;
    const { stdout } = await promisify(execFile)(process.execPath, [
      '--input-type=module',
      '-e',
      script,
    ]);
    expect(JSON.parse(stdout)).toEqual([1, 2]); // 0-based: the 2nd and 3rd lines
  });

  it('greps a file with a regex under per-process options a worker refuses', async () => {
    // --max-old-space-size, --expose-gc and --stack-size made every worker throw
    // ERR_WORKER_INVALID_EXEC_ARGV; --enable-source-maps is one a worker takes.
    const log = await tempFile('INFO ok\nERROR 1 disk\nINFO ok\nERROR 22 net\nERROR x\n');
    const script = await tempFile(
      `import { SpooledArtifact } from ${JSON.stringify(index)};
      const artifact = SpooledArtifact.fromFile(${JSON.stringify(log)});
      console.log((await artifact.grep('^ERROR \\\\d+ ', { count: true })).matchCount);
      await artifact.close();
      `,
      'grep.mjs',
    );
    const { stdout } = await promisify(execFile)(process.execPath, [
      '--max-old-space-size=512',
      '--expose-gc',
      '--stack-size=2000',
      '--enable-source-maps',
      script,
    ]);
    expect(stdout.trim()).toBe('2');
  });
});
