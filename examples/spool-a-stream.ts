// Spool a streamed tool output: it stays in memory up to a threshold, then spills to a private
// temp file; the line index is built while the bytes arrive.
//   npx tsx examples/spool-a-stream.ts
import assert from 'node:assert/strict';
import { SpoolforgeError, spool } from 'spoolforge';

async function* buildOutput() {
  for (let step = 0; step < 20_000; step++) {
    yield `[step ${step}] compiling module ${step % 97}${step === 12_345 ? ' — warning: deprecated API' : ''}\n`;
  }
}

await using artifact = await spool(buildOutput(), { memoryThreshold: 256 * 1024, name: 'build' });
console.log(
  `${artifact.name}: ${await artifact.lineCount()} lines, ~${await artifact.estimateTokens()} tokens`,
);
console.log(
  'head:',
  (await artifact.head(2)).map((line) => line.text),
);
const warnings = await artifact.grep('warning:', { ignoreCase: true });
console.log('warnings:', warnings.lines);
console.log('lines 100-102:', await artifact.cat(100, 103));
// A nested quantifier is walked by the line automaton: no pattern it takes can backtrack.
const nested = await artifact.grep('(a+)+$');
console.log('(a+)+$ at once:', nested.matchCount, 'lines');
// `\b` keeps a regex from the automaton: it runs in a worker, under the timeout.
let timedOut: unknown;
try {
  await artifact.grep('(\\w+\\s?)+\\b!', { timeout: 50 });
} catch (error) {
  timedOut = error;
  console.log('a pathological regex fails cleanly:', (error as Error).message.slice(0, 60));
}

// What this example shows, checked: every line counted, the one warning found where it is.
assert.equal(await artifact.lineCount(), 20_000);
assert.deepEqual(
  warnings.lines.map((line) => line.lineNumber),
  [12_345],
);
assert.equal((await artifact.cat(100, 101))[0]?.text, '[step 100] compiling module 3');
assert.equal(nested.matchCount, 0);
assert.ok(SpoolforgeError.isInstance(timedOut) && timedOut.code === 'E_REGEX_TIMEOUT');
