// Plain http: URLs are read over a socket of spoolforge's own (large reads, not node:http's
// 64 KiB buffers): the response head and every body framing must come out as node:http gives
// them, against servers that write byte by byte, in chunks, without a length, or stop short.
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ChunkedDecoder } from '../../../src/spool/http/chunked-decoder.js';
import { HttpSpoolReader } from '../../../src/spool/http/http-spool-reader.js';
import { readResponseHead } from '../../../src/spool/http/response-head.js';
import { socketHttpGet } from '../../../src/spool/http/socket-http-get.js';
import { patternBytes } from '../../helpers/http-servers.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))),
  );
});

/** A raw TCP server on 127.0.0.1 that answers each request with `answer` (after its head). */
async function rawServer(answer: (socket: Socket, request: string) => void): Promise<string> {
  const server = createServer((socket) => {
    let request = '';
    socket.on('data', (data) => {
      request += data.toString('latin1');
      if (request.includes('\r\n\r\n')) answer(socket, request);
    });
    socket.on('error', () => undefined);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return `http://127.0.0.1:${address.port}/a.log`;
}

/** Writes `bytes` in pieces of `size`, each in its own macrotask, then ends the socket. */
async function trickle(socket: Socket, bytes: Buffer, size: number): Promise<void> {
  for (let at = 0; at < bytes.length; at += size) {
    socket.write(bytes.subarray(at, at + size));
    await new Promise((resolve) => setImmediate(resolve));
  }
  socket.end();
}

async function bodyOf(url: string): Promise<{ status: number; body: Buffer }> {
  const reply = await socketHttpGet(url, new URL(url), new Map(), new AbortController().signal);
  const parts: Uint8Array[] = [];
  await reply.pump((chunk) => {
    parts.push(Uint8Array.from(chunk));
    return true;
  });
  return { status: reply.status, body: Buffer.concat(parts) };
}

describe('socketHttpGet', () => {
  const body = patternBytes(0, 300_000);

  it('reads a head and a Content-Length body written one byte and then 7 bytes at a time', async () => {
    const head = Buffer.from(
      `HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\nX-A: 1\r\nx-a: 2\r\n\r\n`,
    );
    const url = await rawServer(async (socket) => {
      await trickle(socket, head, 1);
    });
    // The head alone, one byte per write, then nothing: the body ends short.
    await expect(bodyOf(url)).rejects.toThrow(/closed before the body ended/);
    const whole = await rawServer(
      (socket) => void trickle(socket, Buffer.concat([head, body]), 7919),
    );
    const reply = await socketHttpGet(
      whole,
      new URL(whole),
      new Map(),
      new AbortController().signal,
    );
    expect(reply.headers.get('X-A')).toBe('1, 2');
    const parts: Buffer[] = [];
    for await (const chunk of reply.chunks()) parts.push(Buffer.from(chunk));
    expect(Buffer.concat(parts).equals(body)).toBe(true);
  });

  it('decodes a chunked body split anywhere, and reads a body that ends with the connection', async () => {
    const chunked = Buffer.concat([
      Buffer.from('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n'),
      ...[body.subarray(0, 1), body.subarray(1, 70_000), body.subarray(70_000)].flatMap((part) => [
        Buffer.from(`${part.length.toString(16)};ext=1\r\n`),
        part,
        Buffer.from('\r\n'),
      ]),
      Buffer.from('0\r\nTrailer: x\r\n\r\n'),
    ]);
    for (const size of [1_000, 65_536]) {
      const url = await rawServer((socket) => void trickle(socket, chunked, size));
      expect((await bodyOf(url)).body.equals(body)).toBe(true);
    }
    const closeDelimited = await rawServer(
      (socket) =>
        void trickle(socket, Buffer.concat([Buffer.from('HTTP/1.0 200 OK\r\n\r\n'), body]), 50_000),
    );
    expect((await bodyOf(closeDelimited)).body.equals(body)).toBe(true);
    // A chunked body cut off before its last chunk is retried by the reader, as a hang-up is.
    const cut = await rawServer(
      (socket) => void trickle(socket, chunked.subarray(0, 90_000), 30_000),
    );
    await expect(bodyOf(cut)).rejects.toThrow(/closed before the body ended/);
  });

  it('refuses malformed and unbounded heads with E_REMOTE_FAILED', async () => {
    const cases = [
      'HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabc',
      'HTTP/1.1 200 OK\r\nBad Header\r\n\r\n',
      'HTTP/1.1 200 OK\r\nA: 1\r\n folded\r\n\r\n',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n',
      'HTTP/1.1 101 Switching Protocols\r\n\r\n',
      'HTTP/2 200\r\n\r\n',
      `HTTP/1.1 200 OK\r\nX: ${'a'.repeat(70_000)}\r\n\r\n`,
    ];
    for (const text of cases) {
      const url = await rawServer((socket) => void socket.end(text));
      await expect(bodyOf(url), text.slice(0, 40)).rejects.toMatchObject({
        code: 'E_REMOTE_FAILED',
      });
    }
    // Incomplete but within the bound: more is awaited; past it, refused before the end comes.
    expect(readResponseHead(Buffer.from('HTTP/1.1 200 OK\r\nX: a'))).toBeUndefined();
    expect(() =>
      readResponseHead(Buffer.from(`HTTP/1.1 200 OK\r\nX: ${'a'.repeat(70_000)}`)),
    ).toThrow(/over 64 KiB/);
    expect(readResponseHead(Buffer.from('HTTP/1.1 304 Not Modified\r\n\r\n'))?.contentLength).toBe(
      0,
    );
  });

  it('stops reading when the reader stops, and aborts with the signal', async () => {
    let written = 0;
    const url = await rawServer(async (socket) => {
      socket.write(`HTTP/1.1 200 OK\r\nContent-Length: ${100 * body.length}\r\n\r\n`);
      for (let index = 0; index < 100 && !socket.destroyed; index++) {
        written += body.length;
        if (!socket.write(body)) await new Promise((resolve) => socket.once('drain', resolve));
      }
    });
    const reply = await socketHttpGet(url, new URL(url), new Map(), new AbortController().signal);
    let seen = 0;
    await reply.pump((chunk) => {
      seen += chunk.length;
      return seen < 100_000;
    });
    expect(seen).toBeLessThan(2_000_000);
    expect(written).toBeLessThan(100 * body.length);
    const controller = new AbortController();
    const slow = await rawServer((socket) => void socket.write('HTTP/1.1 200 OK\r\n'));
    const pending = socketHttpGet(slow, new URL(slow), new Map(), controller.signal);
    controller.abort(new Error('stop'));
    await expect(pending).rejects.toThrow('stop');
  });

  it('refuses a header that would break the request line', async () => {
    const url = await rawServer((socket) => void socket.end('HTTP/1.1 204 No Content\r\n\r\n'));
    await expect(
      socketHttpGet(url, new URL(url), new Map([['x', 'a\r\nb: c']]), new AbortController().signal),
    ).rejects.toMatchObject({ code: 'E_INVALID_ARGUMENT' });
  });

  it('feeds HttpSpoolReader a chunked 206 scan byte for byte', async () => {
    const url = await rawServer((socket, request) => {
      const range = /range: bytes=(\d+)-(\d+)/i.exec(request);
      const start = Number(range?.[1] ?? 0);
      const end = Math.min(Number(range?.[2] ?? body.length - 1), body.length - 1);
      const part = body.subarray(start, end + 1);
      void trickle(
        socket,
        Buffer.concat([
          Buffer.from(
            `HTTP/1.1 206 Partial Content\r\nContent-Range: bytes ${start}-${end}/${body.length}\r\nETag: "v1"\r\nTransfer-Encoding: chunked\r\n\r\n${part.length.toString(16)}\r\n`,
          ),
          part,
          Buffer.from('\r\n0\r\n\r\n'),
        ]),
        40_000,
      );
    });
    const reader = new HttpSpoolReader(url, { blockSize: 16 * 1024 });
    const parts: Buffer[] = [];
    for await (const chunk of reader.stream(0)) parts.push(Buffer.from(chunk));
    await reader.close();
    expect(Buffer.concat(parts).equals(body)).toBe(true);
  });
  it('retries a connection closed before its head, as node:http retries a hang-up', async () => {
    let requests = 0;
    const url = await rawServer((socket) => {
      requests++;
      if (requests === 1) socket.destroy();
      else socket.end(`HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello`);
    });
    const reader = new HttpSpoolReader(url, { retryDelay: 1 });
    expect(Buffer.from(await reader.read(0, 5)).toString()).toBe('hello');
    expect(requests).toBe(2);
    await reader.close();
  });
});

describe('ChunkedDecoder', () => {
  it('refuses data longer than its chunk size and bad sizes', () => {
    const take = () => true;
    expect(() => new ChunkedDecoder('u').push(Buffer.from('2\r\nabc\r\n'), take)).toThrow(
      /longer than its size/,
    );
    expect(() => new ChunkedDecoder('u').push(Buffer.from('zz\r\n'), take)).toThrow(/chunk size/);
    expect(() => new ChunkedDecoder('u').push(Buffer.alloc(5000, 0x31), take)).toThrow(/4 KiB/);
  });
});
