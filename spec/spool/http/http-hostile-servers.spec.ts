import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { HttpSpoolReader } from 'spoolforge';
import { readerChunks } from 'spoolforge/engine';
import { describe, expect, it } from 'vitest';
import { collect, failure, numberedLog, quick } from '../../helpers/http-reader.js';
import {
  faulty,
  type PatternReply,
  patternBytes,
  patternServer,
  rangeStart,
  serveFiles,
  startServer,
  urlOf,
} from '../../helpers/http-servers.js';
import { tempDirectory, tempFile } from '../../helpers/temp-files.js';

/** What a lying server claims the object holds: far more than any read asks for. */
const claimed = 256 * 1024 * 1024;
/** What a reader that cancels a body may still have pulled: socket buffers, not the claim. */
const pulledBound = 16 * 1024 * 1024;
const block = 128 * 1024;

/** A 206 saying `bytes from-(claimed-1)/claimed` and sending all of it. */
const restOfObject = (from: number): PatternReply => ({
  status: 206,
  headers: {
    'content-range': `bytes ${from}-${claimed - 1}/${claimed}`,
    'content-length': String(claimed - from),
  },
  from,
  length: claimed - from,
});

describe('HttpSpoolReader against a server that sends more than asked', () => {
  it('reads only the asked bytes of a 206 that claims the rest of the object, and cancels it', async () => {
    const server = await patternServer((request) => restOfObject(rangeStart(request)));
    const reader = new HttpSpoolReader(`${server.origin}/huge.log`);
    expect(Buffer.from(await reader.read(0, 100))).toEqual(patternBytes(0, 100));
    expect(await reader.byteLength()).toBe(claimed);
    const middle = claimed / 2 + 10;
    expect(Buffer.from(await reader.read(middle, 100))).toEqual(patternBytes(middle, middle + 100));
    expect(server.requests.map(({ range }) => range)).toEqual([
      `bytes=0-${block - 1}`,
      `bytes=${claimed / 2}-${claimed / 2 + block - 1}`,
    ]);
    await server.settled();
    expect(server.bytesSent()).toBeLessThan(pulledBound);
    expect(reader.stats.bytesReceived).toBe(2 * block);
  });

  it('fails a 206 that starts elsewhere than asked, without reading it', async () => {
    const server = await patternServer(() => restOfObject(0));
    const reader = new HttpSpoolReader(`${server.origin}/huge.log`);
    expect(Buffer.from(await reader.read(0, 10))).toEqual(patternBytes(0, 10));
    const error = await failure(reader.read(claimed / 2, 10), 'E_REMOTE_FAILED');
    expect(error.message).toContain(
      `asked for bytes from ${claimed / 2}, got Content-Range bytes 0-`,
    );
    const offset = await patternServer(() => restOfObject(4096));
    await failure(new HttpSpoolReader(`${offset.origin}/huge.log`).byteLength(), 'E_REMOTE_FAILED');
    await Promise.all([server.settled(), offset.settled()]);
    expect(server.bytesSent() + offset.bytesSent()).toBeLessThan(pulledBound);
  });

  it('fails a 206 whose body runs past its Content-Range', async () => {
    const server = await patternServer(() => ({
      status: 206,
      headers: { 'content-range': `bytes 0-${block - 1}/${claimed}` }, // chunked: no length
      from: 0,
      length: claimed,
    }));
    const error = await failure(
      new HttpSpoolReader(`${server.origin}/huge.log`).byteLength(),
      'E_REMOTE_FAILED',
    );
    expect(error.message).toMatch(/more bytes than its Content-Range/);
    await server.settled();
    expect(server.bytesSent()).toBeLessThan(pulledBound);
  });

  it('retries, then fails, a first reply shorter than asked that is not the whole object', async () => {
    const server = await patternServer(() => ({
      status: 206,
      headers: { 'content-range': `bytes 0-99/${claimed}` },
      from: 0,
      length: 100,
    }));
    const reader = new HttpSpoolReader(`${server.origin}/huge.log`, { ...quick, retries: 1 });
    const error = await failure(reader.read(0, 10), 'E_REMOTE_FAILED');
    expect(error.message).toMatch(/sent 100 of 131072 bytes asked for \(after 2 attempts\)/);
  });

  it('refuses a 200 to a Range request, of unknown or large size, without reading it', async () => {
    const whole = (length: boolean): PatternReply => ({
      status: 200,
      headers: length ? { 'content-length': String(claimed) } : {},
      from: 0,
      length: claimed,
    });
    for (const server of [
      await patternServer(() => whole(true)),
      await patternServer(() => whole(false)),
      // Ranges at first, then the whole body.
      await patternServer((_request, n) =>
        n === 1
          ? {
              status: 206,
              headers: { 'content-range': `bytes 0-${block - 1}/${claimed}` },
              from: 0,
              length: block,
            }
          : whole(false),
      ),
    ]) {
      const reader = new HttpSpoolReader(`${server.origin}/huge.log`, quick);
      await failure(reader.read(claimed - 100, 100), 'E_REMOTE_RANGE_UNSUPPORTED');
      await server.settled();
      expect(server.bytesSent()).toBeLessThan(pulledBound);
    }
  });
});

describe('HttpSpoolReader errors never show a password or a query string', () => {
  const secrets = ['hunter2-PW', 'S3cr3tSig', 'AKIA-KEY'];
  const query = '?X-Amz-Signature=S3cr3tSig&X-Amz-Credential=AKIA-KEY';
  const withSecrets = (origin: string) =>
    `${origin.replace('://', '://alice:hunter2-PW@')}/build.log${query}`;

  /** Everything an error can show: message, String(), stack, down its chain of causes. */
  function shown(error: unknown): string {
    const texts: string[] = [];
    for (let cause = error; cause instanceof Error; cause = cause.cause) {
      texts.push(cause.message, String(cause), cause.stack ?? '');
    }
    return texts.join('\n');
  }

  it('sends the URL’s user and password as Basic auth, never in the request line', async () => {
    const server = await startServer((request, response) => {
      response.end(request.headers.authorization ?? 'none');
    });
    const reader = new HttpSpoolReader(withSecrets(server.origin));
    const body = Buffer.from(await reader.read(0, 100)).toString();
    expect(body).toBe(`Basic ${Buffer.from('alice:hunter2-PW').toString('base64')}`);
    expect(server.requests[0]?.url).toBe(`/build.log${query}`);
  });

  it('redacts them for a refused connection, a 404, a 500, a name that does not resolve and a failing fetch', async () => {
    const closed = await startServer(() => undefined);
    await closed.close();
    // Status lines that echo the request, query and all.
    const missing = await startServer((request, response) =>
      response.writeHead(404, `Not Found: ${request.url}`).end(),
    );
    const broken = await startServer((request, response) =>
      response.writeHead(500, `Failed: ${request.url}`).end(),
    );
    const cases = [
      { origin: closed.origin, code: 'E_REMOTE_FAILED', options: {} },
      { origin: missing.origin, code: 'E_REMOTE_NOT_FOUND', options: {} },
      { origin: broken.origin, code: 'E_REMOTE_FAILED', options: {} },
      { origin: 'http://spoolforge-nowhere.invalid', code: 'E_REMOTE_FAILED', options: {} },
      {
        origin: missing.origin,
        code: 'E_REMOTE_FAILED',
        // A fetch of one's own whose errors quote the URL it was given.
        options: {
          fetch: async (input: string | URL | Request) => {
            throw new TypeError(`cannot fetch ${String(input)}`, {
              cause: new Error(`proxy refused ${String(input)}`),
            });
          },
        },
      },
    ];
    for (const { origin, code, options } of cases) {
      const reader = new HttpSpoolReader(withSecrets(origin), { ...quick, retries: 1, ...options });
      const error = await failure(reader.byteLength(), code);
      expect(error.message, origin).toContain(`${origin}/build.log`);
      for (const secret of secrets) expect(shown(error), origin).not.toContain(secret);
    }
  });

  it('redacts them where a server echoes the request in a header', async () => {
    const path = await tempFile(numberedLog(2000), 'build.log');
    const server = await startServer(
      faulty(path, (n, request, response) => {
        delete request.headers['if-match'];
        delete request.headers['if-range'];
        response.setHeader('etag', n === 1 ? '"v1"' : `"${request.url}"`);
        return false;
      }),
    );
    const reader = new HttpSpoolReader(withSecrets(server.origin), { blockSize: 4096 });
    await reader.read(0, 10);
    const error = await failure(reader.read(50_000, 10), 'E_REMOTE_CHANGED');
    expect(error.message).toContain('its ETag went from "v1" to "/build.log');
    for (const secret of secrets) expect(shown(error)).not.toContain(secret);
  });
});

/**
 * A log that the test replaces by one of the same length (its INFO lines become WARN), served by
 * a server that ignores If-Match and If-Range and sends the validators `validators(n)` names on
 * request `n`.
 */
async function swappableLog(validators: (n: number) => { etag?: string; lastModified?: boolean }) {
  const path = join(await tempDirectory(), 'build.log');
  const text = numberedLog(20_000);
  await writeFile(path, text);
  let count = 0;
  let version = 1;
  const server = await startServer((request, response) => {
    delete request.headers['if-match'];
    delete request.headers['if-range'];
    const { etag, lastModified = false } = validators(++count);
    if (etag) response.setHeader('etag', etag);
    serveFiles(path, { etag: false, lastModified })(request, response);
  });
  return {
    text,
    server,
    url: urlOf(server, path),
    /** Replaces the object: the first time by the WARN version, then back and forth. */
    swap: async () => {
      version = 3 - version;
      await writeFile(`${path}.next`, version === 1 ? text : text.replaceAll('INFO', 'WARN'));
      await rename(`${path}.next`, path);
    },
    grow: () => writeFile(path, `${text}one more line\n`),
  };
}

describe('HttpSpoolReader never mixes versions of a replaced object', () => {
  it('takes an ETag that later replies drop as a change', async () => {
    const log = await swappableLog((n) => (n === 1 ? { etag: '"v1"' } : {}));
    const reader = new HttpSpoolReader(log.url, { blockSize: 4096 });
    await reader.read(0, 10);
    await log.swap();
    const error = await failure(reader.read(50_000, 10), 'E_REMOTE_CHANGED');
    expect(error.message).toMatch(/ETag/);
  });

  it('takes a Last-Modified that later replies drop as a change, when it is the validator', async () => {
    const log = await swappableLog((n) => ({ lastModified: n === 1 }));
    const reader = new HttpSpoolReader(log.url, { blockSize: 4096 });
    await reader.read(0, 10);
    await log.swap();
    const error = await failure(reader.read(50_000, 10), 'E_REMOTE_CHANGED');
    expect(error.message).toMatch(/Last-Modified/);
  });

  it('without validators, checks the first block again when a stream ends', async () => {
    const log = await swappableLog(() => ({}));
    const reader = new HttpSpoolReader(log.url, { blockSize: 4096, partSize: 64 * 1024 });
    // Unchanged: one more request, for the first block, and the bytes as they are.
    expect((await collect(readerChunks(reader))).toString()).toBe(log.text);
    expect(log.server.requests.at(-1)?.range).toBe('bytes=0-4095');
    const changedReader = new HttpSpoolReader(log.url, { blockSize: 4096 });
    await changedReader.read(0, 10);
    await log.swap();
    const error = await failure(collect(readerChunks(changedReader)), 'E_REMOTE_CHANGED');
    expect(error.message).toMatch(/first 4096 bytes/);
    // A stream that stops early (a head) is checked as it closes.
    const headReader = new HttpSpoolReader(log.url, { blockSize: 4096 });
    await headReader.read(0, 10);
    await log.swap();
    const stopped = (async () => {
      let chunks = 0;
      for await (const _chunk of readerChunks(headReader)) if (++chunks === 3) break;
    })();
    await failure(stopped, 'E_REMOTE_CHANGED');
  });

  it('without validators, fails when a reply states another length', async () => {
    const log = await swappableLog(() => ({}));
    const reader = new HttpSpoolReader(log.url, { blockSize: 4096 });
    await reader.read(0, 10);
    await log.grow();
    const error = await failure(reader.read(50_000, 10), 'E_REMOTE_CHANGED');
    expect(error.message).toMatch(/length went from/);
  });
});
