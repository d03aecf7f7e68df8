// Keep outputs across restarts and share them over HTTP: put a build log into an ArtifactStore,
// serve the store with createArtifactHandler (raw bytes with Range/ETag, a JSON listing, an HTML
// viewer), then read it back from its URL with Range requests, as another machine would.
//   npx tsx examples/store-and-serve.ts [--keep-serving]

import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ArtifactStore, createArtifactHandler, HttpSpoolReader, SpooledArtifact } from 'spoolforge';

const store = await ArtifactStore.open(await mkdtemp(join(tmpdir(), 'spoolforge-store-')));

// A tool's output, streamed in: 200,000 lines, never one string.
async function* buildLog() {
  for (let batch = 0; batch < 200; batch++) {
    let text = '';
    for (let line = batch * 1000; line < (batch + 1) * 1000; line++) {
      text +=
        line % 49_999 === 0
          ? `ERROR step ${line}: linker ran out of memory\n`
          : `INFO step ${line} ok\n`;
    }
    yield text;
  }
}
const record = await store.put(buildLog(), {
  name: 'ci build 4812',
  ttl: 24 * 60 * 60 * 1000,
  metadata: { job: 4812 },
});
console.log(
  `stored ${record.id}: ${record.byteLength} bytes, ${record.lineCount} lines, ${record.kind}`,
);

// Another process (or this one after a restart) reopens it by name, with its line index.
await using stored = await store.get('ci build 4812');
console.log('last line:', (await stored.tail(1))[0]?.text);

// Serve the store; a chat UI links "View full output" to /artifacts/<id>/view.
const server = createServer(createArtifactHandler(store));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
console.log(`viewer: ${origin}/artifacts/${record.id}/view`);

// Read it remotely: a grep streams it with a few requests in flight, a head reads one block.
const reader = new HttpSpoolReader(`${origin}/artifacts/${record.id}`);
await using remote = new SpooledArtifact(reader);
const { matchCount, lines } = await remote.grep('ERROR', { maxCount: 5 });
console.log(
  `${matchCount} errors over HTTP:`,
  lines.map((line) => line.lineNumber),
);
console.log(`HTTP requests: ${reader.stats.requests}, bytes: ${reader.stats.bytesReceived}`);
if (matchCount !== 5 || lines[1]?.lineNumber !== 49_999) throw new Error('unexpected answer');

if (process.argv.includes('--keep-serving')) {
  console.log('serving; Ctrl-C to stop');
} else {
  server.close();
  await rm(store.directory, { recursive: true, force: true });
}
