/**
 * References bench: `npm run bench:references -- [--size 4G]` (after `npm run build`). Memory,
 * not speed. In a child `node` process, a tool streams a generated log of `--size` into a
 * `ToolSession` (spooled to a temp file); a second tool takes it by reference through an
 * `artifactArgument()` and hashes every byte from its reader; then, in a process of its own, the
 * same with lines 2 to the end (a view of the spool, read in place). Prints whether the sha256
 * of what it read equals the sha256 of what was produced, and the process's RSS at each step and at its
 * peak (the goal: at most 128 MiB, whatever the size). Then the round trip of a 300 KB JSON page
 * passed on by a JSONPath reference: the o200k tokens of the arguments the model writes against
 * the tokens of retyping the page.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { ToolSession } from '../../dist/index.js';
import { htmlPage, pageTools } from '../../spec/helpers/page-tools.js';
import { parseSize } from '../shared/generate-log.js';

const mebibyte = 1024 * 1024;
const mib = (bytes: number) => `${(bytes / mebibyte).toFixed(1)} MiB`;
const { values } = parseArgs({ options: { size: { type: 'string', default: '4G' } } });
const size = parseSize(values.size);

/**
 * The log is passed in a child `node` process (pass-log.mjs): this one runs under tsx, whose
 * loader thread alone adds ~60 MiB, and counts the round trip's tokens.
 */
function passLog(selection: 'whole' | 'lines'): void {
  const script = fileURLToPath(new URL('./pass-log.mjs', import.meta.url));
  const flags = selection === 'lines' ? ['--lines'] : [];
  const child = spawnSync(process.execPath, [script, String(size), ...flags], { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`pass-log.mjs failed: ${child.stderr}`);
  const report = JSON.parse(child.stdout) as PassLogReport;
  const passed =
    selection === 'lines'
      ? 'lines 2 to the end passed by reference ({"$artifact":"call_log","lines":"2-999999999"}, a view read in place)'
      : 'passed by reference';
  console.log(
    `log of ${(size / mebibyte).toLocaleString('en-US')} MiB, ${passed} to an artifactArgument(), in a plain node process:`,
  );
  console.log(`  tool result: ${report.result}`);
  const expected = report.expectedBytes;
  console.log(
    `  bytes read ${report.readBytes === expected ? '= ' : '≠ '}${expected}; sha256 ${report.sha256Equal ? 'equal' : 'DIFFERS'}`,
  );
  console.log(`  CPU while spooling: ${report.spoolCpuSeconds.toFixed(1)} s`);
  const { atStart, afterImports, afterSpool, peak } = report.rss;
  console.log(
    `  RSS: node ${mib(atStart)}; zod and spoolforge imported ${mib(afterImports)}; spooled, handle rendered (o200k tokenizer loaded) ${mib(afterSpool)}; peak ${mib(peak)} (maxRSS ${mib(report.maxRss)})`,
  );
  console.log(`  goal: the process peaks at 128 MiB or less, whatever the size`);
}

interface PassLogReport {
  result: string;
  readBytes: number;
  expectedBytes: number;
  sha256Equal: boolean;
  spoolCpuSeconds: number;
  rss: { atStart: number; afterImports: number; afterSpool: number; peak: number };
  maxRss: number;
}

async function roundTrip(): Promise<void> {
  const { list, received } = pageTools();
  await using session = new ToolSession({ tools: list });
  const first = session.dispatch();
  first.ack();
  await session.run([{ id: 'call_page', name: 'fetch_page', arguments: {} }], first);
  const second = session.dispatch();
  second.ack();
  const args = {
    body: { $artifact: 'call_page', json: '$.body' },
    version: { $artifact: 'call_page', json: '$.version' },
  };
  await session.run([{ id: 'call_update', name: 'update_page', arguments: args }], second);
  console.log(
    `300 KB page round trip (${Buffer.byteLength(JSON.stringify(htmlPage)).toLocaleString('en-US')} bytes):`,
  );
  console.log(
    `  arguments the model wrote: ${countTokens(JSON.stringify(args))} o200k tokens; retyping the body: ${countTokens(JSON.stringify(htmlPage.body)).toLocaleString('en-US')}`,
  );
  console.log(`  body received byte-identical: ${received[0]?.body === htmlPage.body}`);
}

passLog('whole');
passLog('lines');
await roundTrip();
