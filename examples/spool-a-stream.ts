// Spool a streamed tool output: it stays in memory up to a threshold, then spills to a private
// temp file; the line index is built while the bytes arrive.
//   npx tsx examples/spool-a-stream.ts
import { spool } from 'spoolforge';

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
console.log('warnings:', (await artifact.grep('warning:', { ignoreCase: true })).lines);
console.log('lines 100-102:', await artifact.cat(100, 103));
try {
  await artifact.grep('(a+)+$', { timeout: 50 });
} catch (error) {
  console.log('a pathological regex fails cleanly:', (error as Error).message.slice(0, 60));
}
