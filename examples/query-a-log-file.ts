// Query a log file in place: nothing is copied or loaded whole; the line index is built on the
// first line-numbered query and reused after.
//   npx tsx examples/query-a-log-file.ts [path]
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SpooledArtifact } from 'spoolforge';

const path = process.argv[2] ?? join(tmpdir(), 'spoolforge-example.log');
if (!process.argv[2]) {
  const lines = Array.from({ length: 50_000 }, (_, index) =>
    index % 9_973 === 0
      ? `ERROR request ${index} failed: disk quota exceeded`
      : `INFO request ${index} ok`,
  );
  await writeFile(path, `${lines.join('\n')}\n`);
}

await using artifact = SpooledArtifact.fromFile(path);
console.log(`${await artifact.byteLength()} bytes, ${await artifact.lineCount()} lines`);
console.log('last 2 lines:', await artifact.tail(2));
const { matchCount, lines } = await artifact.grep('ERROR', { before: 1, maxCount: 3 });
console.log(`${matchCount} matching lines (0-based numbers, context included):`);
for (const line of lines) console.log(`${line.lineNumber}${line.isMatch ? ':' : '-'}${line.text}`);

if (!process.argv[2]) {
  // The generated log, checked: an ERROR every 9,973 lines, each found with the line before it.
  assert.equal(await artifact.lineCount(), 50_000);
  assert.equal(matchCount, 3);
  assert.deepEqual(
    lines.map((line) => [line.lineNumber, line.isMatch]),
    [
      [0, true],
      [9_972, false],
      [9_973, true],
      [19_945, false],
      [19_946, true],
    ],
  );
  assert.equal(lines[4]?.text, 'ERROR request 19946 failed: disk quota exceeded');
}
