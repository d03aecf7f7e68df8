/**
 * Counter bench: `npx tsx bench/tokens/versus-gpt-tokenizer.ts [--size 16M] [--runs 5]
 * [--encoding o200k_base]` (after `npm run build`). Counts the first `--size` of the generated
 * log, in 256 KiB slices cut at line ends, with spoolforge's tokenizer and with gpt-tokenizer,
 * alternating, both caches emptied before each run; prints each one's median MiB/s and checks
 * the two totals are equal.
 */
import { parseArgs } from 'node:util';
import { loadTokenizer } from '../../dist/engine.js';
import { generateLog, parseSize } from '../shared/generate-log.js';

const mebibyte = 1024 * 1024;
const sliceBytes = 256 * 1024;
const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '16M' },
    runs: { type: 'string', default: '5' },
    encoding: { type: 'string', default: 'o200k_base' },
  },
});
const size = parseSize(values.size);
const runs = Number(values.runs);
const encoding = values.encoding === 'cl100k_base' ? 'cl100k_base' : 'o200k_base';

/** The log's first `size` bytes as strings of about 256 KiB, each ending at a line end. */
async function slices(): Promise<string[]> {
  const parts: Uint8Array[] = [];
  let length = 0;
  for await (const chunk of generateLog({ size })) {
    parts.push(chunk);
    length += chunk.length;
    if (length >= size) break;
  }
  const bytes = Buffer.concat(parts).subarray(0, size);
  const texts: string[] = [];
  for (let start = 0; start < bytes.length; ) {
    const newline = bytes.indexOf(0x0a, Math.min(bytes.length, start + sliceBytes));
    const end = newline < 0 ? bytes.length : newline + 1;
    texts.push(bytes.subarray(start, end).toString('utf8'));
    start = end;
  }
  return texts;
}

const median = (numbers: number[]) => [...numbers].sort((a, b) => a - b)[numbers.length >> 1];

const texts = await slices();
const reference = await import(`gpt-tokenizer/encoding/${encoding}`);
const plainText = { disallowedSpecial: new Set<string>() };
const ours = await loadTokenizer(encoding);
if (!ours) throw new Error(`no tokenizer for ${encoding}`);
const counters = {
  spoolforge: { count: ours.count, clear: ours.clearCache },
  'gpt-tokenizer': {
    count: (text: string) => reference.countTokens(text, plainText) as number,
    clear: reference.clearMergeCache as () => void,
  },
};
const seconds: Record<string, number[]> = { spoolforge: [], 'gpt-tokenizer': [] };
const totals: Record<string, number> = {};
for (let run = 0; run < runs; run++) {
  for (const [name, counter] of Object.entries(counters)) {
    counter.clear();
    const start = performance.now();
    let tokens = 0;
    for (const text of texts) tokens += counter.count(text);
    seconds[name]?.push((performance.now() - start) / 1000);
    totals[name] = tokens;
  }
}
console.log(`${encoding}, ${(size / mebibyte).toFixed(0)} MiB of the generated log, ${runs} runs`);
for (const [name, times] of Object.entries(seconds)) {
  const time = median(times) as number;
  console.log(
    `  ${name}: ${(size / mebibyte / time).toFixed(1)} MiB/s (median ${time.toFixed(2)} s; ` +
      `runs ${times.map((value) => value.toFixed(2)).join(', ')}), ${totals[name]} tokens`,
  );
}
if (totals.spoolforge !== totals['gpt-tokenizer']) throw new Error('the totals differ');
