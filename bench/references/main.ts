/**
 * References bench: `npm run bench:references -- [--size 4G]` (after `npm run build`). Memory,
 * not speed. A tool streams a generated log of `--size` into a `ToolSession` (spooled to a temp
 * file); a second tool takes it by reference through an `artifactArgument()` and hashes every
 * byte from its reader. Prints whether the sha256 of what it read equals the sha256 of what was
 * produced, the RSS before the log (the tokenizer handles are counted with already loaded) and
 * its peak while the log is spooled and read (the goal: at most 128 MiB more, whatever the size). Then the round trip of a
 * 300 KB JSON page passed on by a JSONPath reference: the o200k tokens of the arguments the
 * model writes against the tokens of retyping the page.
 */
import { createHash } from 'node:crypto';
import { parseArgs } from 'node:util';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { z } from 'zod';
import { readerChunks } from '../../dist/engine.js';
import { artifactArgument, defineTool, ToolSession } from '../../dist/index.js';
import { parseSize } from '../shared/generate-log.js';

const mebibyte = 1024 * 1024;
const { values } = parseArgs({ options: { size: { type: 'string', default: '4G' } } });
const size = parseSize(values.size);

/** 1 MiB of log lines; each block's first line numbers it, so no two blocks are equal. */
function block(index: number): Buffer {
  const line = (n: number) =>
    `2026-11-28T08:00:00Z INFO block ${index} line ${n} ${'x'.repeat(40)}\n`;
  const lines: string[] = [];
  let bytes = 0;
  for (let n = 0; bytes < mebibyte; n++) {
    const text = line(n);
    lines.push(text);
    bytes += text.length;
  }
  return Buffer.from(lines.join('')).subarray(0, mebibyte);
}

async function passLog(): Promise<void> {
  const produced = createHash('sha256');
  const produceLog = defineTool({
    name: 'produce_log',
    description: 'Streams the build log.',
    inputSchema: z.object({}),
    handler: async function* () {
      for (let written = 0; written < size; written += mebibyte) {
        const chunk = block(written / mebibyte).subarray(0, Math.min(mebibyte, size - written));
        produced.update(chunk);
        yield chunk;
      }
    },
  });
  let read = '';
  let readBytes = 0;
  const uploadLog = defineTool({
    name: 'upload_log',
    description: 'Uploads a log.',
    inputSchema: z.object({ log: artifactArgument() }),
    handler: async ({ log }, { signal }) => {
      const hash = createHash('sha256');
      for await (const chunk of readerChunks(log.reader, { signal })) {
        hash.update(chunk);
        readBytes += chunk.length;
      }
      read = hash.digest('hex');
      return `uploaded ${readBytes} bytes`;
    },
  });
  await using session = new ToolSession({ tools: [produceLog, uploadLog] });
  const first = session.dispatch();
  first.ack();
  const started = performance.now();
  await session.run([{ id: 'call_log', name: 'produce_log', arguments: {} }], first);
  const spooled = performance.now();
  const second = session.dispatch();
  second.ack();
  const args = { log: { $artifact: 'call_log' } };
  const [outcome] = await session.run(
    [{ id: 'call_up', name: 'upload_log', arguments: args }],
    second,
  );
  const done = performance.now();
  const expected = produced.digest('hex');
  console.log(
    `log of ${(size / mebibyte).toLocaleString('en-US')} MiB passed by reference to an artifactArgument():`,
  );
  console.log(
    `  tool result: ${outcome?.content.map((part) => (part.type === 'text' ? part.text : '')).join('')}`,
  );
  console.log(
    `  bytes read ${readBytes === size ? '= ' : '≠ '}${size}; sha256 ${read === expected ? 'equal' : `DIFFERS (${read} vs ${expected})`}`,
  );
  console.log(
    `  spooled in ${((spooled - started) / 1000).toFixed(1)} s, read back in ${((done - spooled) / 1000).toFixed(1)} s`,
  );
  console.log(`  reference the model wrote: ${countTokens(JSON.stringify(args))} o200k tokens`);
}

async function roundTrip(): Promise<void> {
  const page = {
    id: 4812,
    version: 17,
    body: `<table>${Array.from({ length: 8_000 }, (_, row) => `<tr><td>${row}</td><td>row ${row}</td></tr>`).join('')}</table>`,
  };
  let received = '';
  const fetchPage = defineTool({
    name: 'fetch_page',
    description: 'Fetches a page.',
    inputSchema: z.object({}),
    kind: 'json',
    handler: () => JSON.stringify(page),
  });
  const updatePage = defineTool({
    name: 'update_page',
    description: 'Updates a page.',
    inputSchema: z.object({ id: z.number(), body: z.string(), version: z.number() }),
    handler: ({ body }) => {
      received = body;
      return 'updated';
    },
  });
  await using session = new ToolSession({ tools: [fetchPage, updatePage] });
  const first = session.dispatch();
  first.ack();
  await session.run([{ id: 'call_page', name: 'fetch_page', arguments: {} }], first);
  const second = session.dispatch();
  second.ack();
  const args = {
    id: 4812,
    body: { $artifact: 'call_page', json: '$.body' },
    version: { $artifact: 'call_page', json: '$.version' },
  };
  await session.run([{ id: 'call_update', name: 'update_page', arguments: args }], second);
  console.log(
    `300 KB page round trip (${Buffer.byteLength(JSON.stringify(page)).toLocaleString('en-US')} bytes):`,
  );
  console.log(
    `  arguments the model wrote: ${countTokens(JSON.stringify(args))} o200k tokens; retyping the body: ${countTokens(JSON.stringify(page.body)).toLocaleString('en-US')}`,
  );
  console.log(`  body received byte-identical: ${received === page.body}`);
}

const mib = (bytes: number) => `${(bytes / mebibyte).toFixed(1)} MiB`;
await roundTrip();
// The tokenizer the handles are counted with is loaded by now: what the log adds is measured
// from here, sampled every 20 ms.
const before = process.memoryUsage().rss;
let peak = before;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 20);
await passLog();
clearInterval(sampler);
peak = Math.max(peak, process.memoryUsage().rss);
console.log(
  `RSS before the log: ${mib(before)}; peak while spooling and reading it: ${mib(peak)} (+${mib(peak - before)}); process peak (maxRSS): ${mib(process.resourceUsage().maxRSS * 1024)}`,
);
console.log(`goal: the log adds at most 128 MiB whatever its size`);
