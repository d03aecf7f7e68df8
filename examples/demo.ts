// The main job: a tool streams a large log; spoolforge spools it (bounded memory, line index
// built on the way) and answers head / tail / grep / line ranges, each with its time.
//   npm run demo -- --size 512M
import { parseArgs } from 'node:util';
import { spool } from 'spoolforge';
import { generateLog, parseSize, rareLiteral } from '../bench/generate-log.js';

const { values } = parseArgs({ options: { size: { type: 'string', default: '256M' } } });
const size = parseSize(values.size);
const mebibytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

async function timed<T>(label: string, run: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await run();
  console.log(`\n▸ ${label}  (${(performance.now() - started).toFixed(1)} ms)`);
  return result;
}

console.log(`spoolforge demo: a tool streams a ${mebibytes(size)} log into spool()`);
await using artifact = await timed('spool the streamed log (index built while writing)', () =>
  spool(generateLog({ size }), { name: 'service.log' }),
);
const bytes = await artifact.byteLength();
const lineCount = await artifact.lineCount();
console.log(
  `  ${mebibytes(bytes)}, ${lineCount.toLocaleString()} lines, ~${(await artifact.estimateTokens()).toLocaleString()} tokens if inlined`,
);
console.log(`  peak RSS so far ${mebibytes(process.resourceUsage().maxRSS * 1024)}`);

const show = (lines: { lineNumber: number; text: string }[]) => {
  for (const line of lines) console.log(`  ${line.lineNumber + 1}: ${line.text.slice(0, 110)}`);
};
show(await timed('head 3', () => artifact.head(3)));
show(await timed('tail 3', () => artifact.tail(3)));
const middle = Math.floor(lineCount * 0.9);
show(
  await timed(`lines ${middle + 1}–${middle + 3} (1-based), found through the line index`, () =>
    artifact.cat(middle, middle + 3),
  ),
);
const rare = await timed(`grep -c ${rareLiteral} (rare literal, byte search)`, () =>
  artifact.grep(rareLiteral, { count: true }),
);
console.log(`  ${rare.matchCount} matching lines`);
const frequent = await timed('grep -c "ERROR .*timeout" (regex, worker thread)', () =>
  artifact.grep('ERROR .*timeout', { count: true }),
);
console.log(`  ${frequent.matchCount.toLocaleString()} matching lines`);
show(
  (
    await timed(`grep ${rareLiteral} with 1 line of context, first 2 matches`, () =>
      artifact.grep(rareLiteral, { context: 1, maxCount: 2 }),
    )
  ).lines,
);
console.log(
  `\npeak RSS ${mebibytes(process.resourceUsage().maxRSS * 1024)} for a ${mebibytes(bytes)} log`,
);
