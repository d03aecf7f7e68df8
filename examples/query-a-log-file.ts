// Query a log file in place: nothing is copied or loaded whole; the line index is built on the
// first line-numbered query and reused after.
//   npx tsx examples/query-a-log-file.ts [path]
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
