import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  JsonSpillParser,
  type JsonSpillParserOptions,
} from '../../../src/mcp/upstream/json-spill-parser.js';
import {
  SPILLED_JSON_KEY,
  type SpilledValue,
  SpilledValues,
} from '../../../src/mcp/upstream/spilled-values.js';
import type { SpoolforgeError } from '../../../src/shared/spoolforge-error.js';

type Message = Record<string, unknown>;

async function parse(chunks: Iterable<Uint8Array>, options: Partial<JsonSpillParserOptions> = {}) {
  const spilled = new SpilledValues();
  const messages: Message[] = [];
  const errors: SpoolforgeError[] = [];
  const parser = new JsonSpillParser({
    spilled,
    onmessage: (message) => messages.push(message as Message),
    onerror: (error) => errors.push(error),
    ...options,
  });
  for (const chunk of chunks) await parser.write(chunk);
  await parser.end();
  return { spilled, messages, errors };
}

async function bytesOf(value: SpilledValue | undefined): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const chunk of value?.stream() ?? []) parts.push(chunk);
  return Buffer.concat(parts);
}

function resultText(message: Message | undefined): unknown {
  const result = message?.result as { content: { text: unknown }[] } | undefined;
  return result?.content[0]?.text;
}

/** Every way to cut `bytes` in two, and a few random cuts in many pieces. */
function* splits(bytes: Buffer): Generator<Buffer[]> {
  for (let cut = 0; cut <= bytes.length; cut += 1)
    yield [bytes.subarray(0, cut), bytes.subarray(cut)];
  for (let round = 0; round < 20; round += 1) {
    const pieces: Buffer[] = [];
    for (let start = 0; start < bytes.length; ) {
      const size = 1 + Math.floor(Math.random() * 7);
      pieces.push(bytes.subarray(start, start + size));
      start += size;
    }
    yield pieces;
  }
}

// Lone surrogates have no UTF-8 form: the bytes test below covers them (they become U+FFFD).
const tricky = 'tab\\t quote\\" slash\\/ back\\\\ \\u00e9\\u00E9 é 😀 \\uD83D\\uDE00 \\u0000 end';

describe('JsonSpillParser', () => {
  it('decodes spilled strings and diverts structuredContent the same for every split of the input', async () => {
    const line = `{"jsonrpc":"2.0","id":"a-1","result":{"content":[{"type":"text","text":"${tricky}"}],"structuredContent":{"rows":[{"id":1,"name":"x\\"y é"}],"n":null}}}`;
    const expected = JSON.parse(line);
    for (const pieces of splits(Buffer.from(`${line}\n`))) {
      const { spilled, messages, errors } = await parse(pieces, { spillBytes: 8 });
      expect(errors).toEqual([]);
      const text = resultText(messages[0]);
      expect(spilled.isToken(text)).toBe(true);
      const result = messages[0]?.result as Record<string, Record<string, string>>;
      expect(spilled.markerToken(result.structuredContent)).toBe(
        result.structuredContent?.[SPILLED_JSON_KEY],
      );
      expect(await spilled.resolve(messages[0])).toEqual(expected);
      expect(spilled.size).toBe(0);
    }
  });

  it('decodes escapes and surrogate pairs exactly as JSON.parse does, in bytes', async () => {
    const units = [0x22, 0x5c, 0x2f, 0x08, 0x0c, 0x0a, 0x0d, 0x09, 0x00, 0x1f, 0x41, 0xe9, 0x20ac];
    const longPieces = [
      '\\"',
      '\\\\',
      '\\/',
      '\\b',
      '\\f',
      '\\n',
      '\\r',
      '\\t',
      'é',
      '😀',
      '中',
      'a b',
    ];
    const surrogates = [0xd83d, 0xde00, 0xdbff, 0xdc00, 0xd800, 0xdfff];
    for (let round = 0; round < 300; round += 1) {
      let escaped = '';
      // Odd rounds: long strings with no \u escape, which take the JSON.parse path in big pieces.
      for (let index = 0; round % 2 === 1 && index < 600; index += 1) {
        escaped += longPieces[Math.floor(Math.random() * longPieces.length)];
      }
      for (let index = 0; round % 2 === 0 && index < 40; index += 1) {
        const pick = Math.random();
        if (pick < 0.3)
          escaped += JSON.stringify(String.fromCharCode(units[index % units.length] ?? 0x41)).slice(
            1,
            -1,
          );
        else if (pick < 0.6) {
          const unit = surrogates[Math.floor(Math.random() * surrogates.length)] ?? 0xd800;
          const hex = unit.toString(16);
          escaped += `\\u${Math.random() < 0.5 ? hex : hex.toUpperCase()}`;
        } else if (pick < 0.8) escaped += ['é', '😀', '中', 'a'][index % 4];
        else
          escaped += `\\u${Math.floor(Math.random() * 0xffff)
            .toString(16)
            .padStart(4, '0')}`;
      }
      const line = `{"jsonrpc":"2.0","id":${round},"result":{"content":[{"type":"text","text":"${escaped}"}]}}`;
      const expected = Buffer.from(resultText(JSON.parse(line)) as string);
      const bytes = Buffer.from(`${line}\n`);
      const cut = Math.floor(Math.random() * bytes.length);
      const { spilled, messages } = await parse([bytes.subarray(0, cut), bytes.subarray(cut)], {
        spillBytes: 4,
      });
      const value = spilled.take(resultText(messages[0]) as string);
      expect(value?.kind).toBe('string');
      expect(value?.byteLength).toBe(expected.length);
      expect((await bytesOf(value)).equals(expected)).toBe(true);
      await value?.release();
    }
  });

  it('spills a 50 MB one-line string with its bytes exact, in 64 KiB chunks', async () => {
    const piece = `line with "quotes", a tab\t, é and 😀 ${'x'.repeat(60)}\n`;
    const text = piece.repeat(Math.ceil(50_000_000 / Buffer.byteLength(piece)));
    const line = Buffer.from(
      `${JSON.stringify({ result: { content: [{ type: 'text', text }] }, jsonrpc: '2.0', id: 3 })}\n`,
    );
    const chunks = function* () {
      for (let start = 0; start < line.length; start += 65_536)
        yield line.subarray(start, start + 65_536);
    };
    const { spilled, messages, errors } = await parse(chunks());
    expect(errors).toEqual([]);
    expect(messages[0]?.id).toBe(3);
    const value = spilled.take(resultText(messages[0]) as string);
    const expected = Buffer.from(text);
    expect(value?.byteLength).toBe(expected.length);
    const hash = createHash('sha256');
    for await (const chunk of value?.stream() ?? []) hash.update(chunk);
    expect(hash.digest('hex')).toBe(createHash('sha256').update(expected).digest('hex'));
    await value?.release();
  }, 60_000);

  it('diverts a big structuredContent raw: its bytes parse to the original', async () => {
    const structuredContent = {
      rows: Array.from({ length: 5_000 }, (_, id) => ({
        id,
        name: `row "${id}" é`,
        tags: ['a', 'b'],
      })),
    };
    const message = { result: { structuredContent, content: [] }, jsonrpc: '2.0', id: 9 };
    const { spilled, messages } = await parse([Buffer.from(`${JSON.stringify(message)}\n`)], {
      spillBytes: 64 * 1024,
    });
    const result = messages[0]?.result as Record<string, unknown>;
    const value = spilled.take(spilled.markerToken(result.structuredContent) ?? '');
    expect(value?.kind).toBe('json');
    expect(JSON.parse((await bytesOf(value)).toString())).toEqual(structuredContent);
    await value?.release();
  });

  it('keeps at most spillMemoryBytes of one message in memory: further spills go to temp files', async () => {
    const parent = await mkdtemp(join(tmpdir(), 'spill-budget-'));
    const content = Array.from({ length: 40 }, (_, index) => ({
      type: 'text',
      text: `${index} ${'m'.repeat(2_000_000)}`,
    }));
    const line = Buffer.from(`${JSON.stringify({ result: { content }, jsonrpc: '2.0', id: 1 })}\n`);
    const { spilled, messages } = await parse([line], {
      spillMemoryBytes: 16 * 1024 * 1024,
      writer: { tempDirectory: parent },
    });
    expect(spilled.tokensIn(messages[0])).toHaveLength(40);
    const [directory] = await readdir(parent);
    const files = await readdir(join(parent, directory ?? ''));
    // 4 MiB per spool at most in memory: 16 MiB holds 8 of these 2 MB texts, the rest are files.
    expect(files.length).toBeGreaterThanOrEqual(32);
    expect(await spilled.resolve(messages[0])).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: { content },
    });
    await rm(parent, { recursive: true, force: true });
  }, 60_000);

  it('keeps small messages as they are, with CRLF line ends and blank lines', async () => {
    const small = [
      { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'hi "there"' }] } },
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'é' } },
      { jsonrpc: '2.0', id: 'x', method: 'ping' },
      { jsonrpc: '2.0', id: 2, error: { code: -32000, message: 'nope' } },
    ];
    const input = `\n${small.map((message) => JSON.stringify(message)).join('\r\n\r\n  \n')}\r\n`;
    const { spilled, messages, errors } = await parse([Buffer.from(input)]);
    expect(errors).toEqual([]);
    expect(messages).toEqual(small);
    expect(spilled.size).toBe(0);
  });

  it('skips a line that is not JSON or not JSON-RPC with an error, and reads the next', async () => {
    const input = `Server v1.2 starting…\n{"not":"rpc"}\n{"jsonrpc":"2.0","id":1,"result":{}}\n`;
    const { messages, errors } = await parse([Buffer.from(input)]);
    expect(messages).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }]);
    expect(errors.map((error) => error.code)).toEqual(['E_MCP_MALFORMED', 'E_MCP_MALFORMED']);
    expect(errors[0]?.message).toContain('"Server v1.2 starting…"');
  });

  it('frees the spills of a malformed line and quotes at most 200 characters of it', async () => {
    const input = `{"jsonrpc":"2.0","id":1,"result":{"x":"${'y'.repeat(5_000)}"} trailing junk\n{"jsonrpc":"2.0","id":1,"result":{"x":"bad \\q escape ${'y'.repeat(5_000)}"}}\n`;
    const { spilled, messages, errors } = await parse([Buffer.from(input)], { spillBytes: 100 });
    expect(messages).toEqual([]);
    expect(errors).toHaveLength(2);
    expect(errors[1]?.message).toContain('invalid escape \\q');
    for (const error of errors) expect(error.message.length).toBeLessThan(400);
    expect(spilled.size).toBe(0);
  });

  it('keeps invalid UTF-8 in a spilled string byte for byte', async () => {
    const bytes = Buffer.concat([
      Buffer.from('{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"ok '),
      Buffer.from([0xff, 0xc3, 0x28, 0xe2, 0x82]),
      Buffer.from(' end"}]}}\n'),
    ]);
    const { spilled, messages } = await parse([bytes], { spillBytes: 4 });
    const value = spilled.take(resultText(messages[0]) as string);
    expect([...(await bytesOf(value))]).toEqual([
      ...Buffer.from('ok '),
      0xff,
      0xc3,
      0x28,
      0xe2,
      0x82,
      ...Buffer.from(' end'),
    ]);
  });

  it('answers a result past maxMessageBytes with a JSON-RPC error for its id, read after the result', async () => {
    const big = JSON.stringify({
      result: { content: [{ type: 'text', text: 'z'.repeat(10_000) }] },
      jsonrpc: '2.0',
      id: 42,
    });
    const input = `${big}\n{"jsonrpc":"2.0","method":"notifications/x","params":{"d":"${'z'.repeat(10_000)}"}}\n{"jsonrpc":"2.0","id":43,"result":{}}\n`;
    const bytes = Buffer.from(input);
    const chunks = Array.from({ length: Math.ceil(bytes.length / 1000) }, (_, index) =>
      bytes.subarray(index * 1000, index * 1000 + 1000),
    );
    const { spilled, messages, errors } = await parse(chunks, {
      spillBytes: 100,
      maxMessageBytes: 5_000,
    });
    expect(messages).toEqual([
      {
        jsonrpc: '2.0',
        id: 42,
        error: {
          code: -32603,
          message: `upstream result of ${big.length} bytes exceeds the limit of 5000 bytes (--max-result)`,
        },
      },
      { jsonrpc: '2.0', id: 43, result: {} },
    ]);
    expect(errors.map((error) => error.code)).toEqual(['E_MCP_RESULT_TOO_LARGE']);
    expect(spilled.size).toBe(0);
  });

  it('answers a result whose small values alone pass maxSkeletonBytes with an error for its id', async () => {
    // Thousands of short parts: nothing to spill, so all of it would have to be parsed at once.
    const content = Array.from({ length: 3_000 }, (_, index) => ({
      type: 'text',
      text: `part ${index}`,
    }));
    const big = JSON.stringify({ result: { content }, jsonrpc: '2.0', id: 'many' });
    const input = `${big}\n{"jsonrpc":"2.0","id":2,"result":{}}\n`;
    const { spilled, messages, errors } = await parse([Buffer.from(input)], {
      spillBytes: 1_000,
      maxSkeletonBytes: 10_000,
    });
    expect(errors).toEqual([]);
    expect(messages).toEqual([
      {
        jsonrpc: '2.0',
        id: 'many',
        error: {
          code: -32603,
          message: `upstream result of ${big.length} bytes has more than 10000 bytes outside its large values, too many to parse at once`,
        },
      },
      { jsonrpc: '2.0', id: 2, result: {} },
    ]);
    expect(spilled.size).toBe(0);
  });

  it('drops a message cut off by the end of the input and frees its spills', async () => {
    const input = `{"jsonrpc":"2.0","id":1,"result":{}}\n{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"${'w'.repeat(5_000)}`;
    const { spilled, messages, errors } = await parse([Buffer.from(input)], { spillBytes: 100 });
    expect(messages).toHaveLength(1);
    expect(errors.map((error) => error.code)).toEqual(['E_MCP_UPSTREAM']);
    expect(spilled.size).toBe(0);
  });
});
