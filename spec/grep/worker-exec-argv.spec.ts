import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

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
});
