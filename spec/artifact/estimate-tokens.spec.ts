import { countTokens as countCl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';
import { type SpooledArtifact, SpoolforgeError, type SpoolReader, spool } from 'spoolforge';
import { estimateTokens } from 'spoolforge/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateLog } from '../../bench/shared/generate-log.js';
import { chunked } from '../helpers/chunked.js';

/** Special-token text counts as plain text, the way the estimator counts artifact text. */
const plainText = { disallowedSpecial: new Set<string>() };
const tokenizers = {
  o200k_base: (text: string) => countO200k(text, plainText),
  cl100k_base: (text: string) => countCl100k(text, plainText),
};
const encodings = Object.keys(tokenizers) as (keyof typeof tokenizers)[];
const encoder = new TextEncoder();

const smallTexts: Record<string, string> = {
  empty: '',
  prose: 'The quick brown fox jumps over the lazy dog. It’s 3:14 PM; isn’t it?\n',
  code: 'function add(a, b) {\n  return a + b; // sum\n}\n\n\n/* done */\n',
  unicode: 'Zürich, São Paulo, 東京 🎉\r\nnaïve café\n',
  'special-token text': 'before <|endoftext|> after <|im_start|>\n',
  'no final newline': 'a\nb\n  c',
  'minified JSON': '{"name":"foo","tags":["alpha","beta"],"nested":{"key":"value"}},'.repeat(40),
  Cyrillic: 'Привет, мир! Как дела? Всё хорошо. '.repeat(40),
};

/** Lines that stress where a chunk may be cut: CRLF, blank runs, indentation, `/`, Unicode. */
function trickyText(byteLength: number): string {
  const pieces = [
    '{\n  "a": [1, 2],\n  "b": {\n    "c": "d"\n  }\n}\n',
    'x\r\n\r\nY\n',
    '}\n/path/to/file\n',
    '  \n\n   \n\tindented\n',
    'déjà vu 東京\n',
    '\u00a0non-breaking\n',
    '<|endoftext|> data\n',
    "it's\n'tis\n",
    '12345\n67890\n',
    '    at handler (server.js:1:2)\n',
    '\n',
    ')\n/',
    `${'word '.repeat(20)}\n`,
  ];
  let text = '';
  for (let index = 0; text.length < byteLength; index = (index * 7 + 3) % 101) {
    text += pieces[index % pieces.length];
  }
  return text;
}

/** A reader whose stream hands out chunks of odd sizes, so exact counting cuts everywhere. */
function oddChunkReader(bytes: Uint8Array, sizes: number[]): SpoolReader {
  return {
    byteLength: async () => bytes.length,
    read: async (position, length) => bytes.subarray(position, position + length),
    stream: (start = 0, end = bytes.length) => chunked(bytes.subarray(start, end), sizes),
  };
}

describe('estimateTokens: exact', () => {
  for (const encoding of encodings) {
    for (const [label, text] of Object.entries(smallTexts)) {
      it(`equals gpt-tokenizer's count (${encoding}, ${label})`, async () => {
        await using artifact = await spool(text);
        expect(await estimateTokens(artifact.reader, { encoding })).toEqual({
          tokens: tokenizers[encoding](text),
          encoding,
          method: 'exact',
        });
      });
    }

    it(`stays exact across chunk boundaries (${encoding})`, async () => {
      const text = trickyText(400_000);
      const bytes = encoder.encode(text);
      const expected = tokenizers[encoding](text);
      const options = { encoding, exactUpTo: Number.POSITIVE_INFINITY };
      for (const sizes of [[1, 2, 3], [7, 13, 4096, 1], [65_537]]) {
        const estimate = await estimateTokens(oddChunkReader(bytes, sizes), options);
        expect(estimate.tokens).toBe(expected);
      }
      await using spilled = await spool(chunked(bytes, [5, 70_001]), { memoryThreshold: 1024 });
      expect((await estimateTokens(spilled.reader, options)).tokens).toBe(expected);
    });
  }

  it('counts runs that would stall BPE (one piece of 300 KB) in bounded pieces', async () => {
    const runs = { '=': 300_000, '\n': 300_000, '🎉': 75_000 };
    for (const [character, repeat] of Object.entries(runs)) {
      await using artifact = await spool(character.repeat(repeat));
      const { tokens, method } = await estimateTokens(artifact.reader);
      // Counting one 300 KB piece whole takes minutes; a 6,400-byte one, scaled, does not.
      const sampleRepeat = 6_400 / Buffer.byteLength(character);
      const expected =
        (tokenizers.o200k_base(character.repeat(sampleRepeat)) * repeat) / sampleRepeat;
      expect(method).toBe('exact');
      expect(Math.abs(tokens - expected) / expected).toBeLessThan(0.01);
    }
  });

  it('counts only the first byteLength bytes when given', async () => {
    await using artifact = await spool('alpha beta\ngamma delta\n');
    const estimate = await estimateTokens(artifact.reader, { byteLength: 11 });
    expect(estimate.tokens).toBe(tokenizers.o200k_base('alpha beta\n'));
  });
});

describe('estimateTokens: sampled', () => {
  let log: SpooledArtifact;
  let exactTokens: number;

  beforeAll(async () => {
    log = await spool(generateLog({ size: 20 * 1024 * 1024 }));
    exactTokens = (await estimateTokens(log.reader, { exactUpTo: Number.POSITIVE_INFINITY }))
      .tokens;
  }, 120_000);
  afterAll(() => log?.close());

  it('is within 3% of exact on a realistic 20 MiB log', async () => {
    const estimate = await estimateTokens(log.reader);
    expect(estimate.method).toBe('sampled');
    expect(estimate.encoding).toBe('o200k_base');
    expect(Math.abs(estimate.tokens - exactTokens) / exactTokens).toBeLessThan(0.03);
  });

  it('samples past a lowered exactUpTo, whatever the encoding', async () => {
    const text = trickyText(300_000);
    await using artifact = await spool(text);
    for (const encoding of encodings) {
      const estimate = await estimateTokens(artifact.reader, { encoding, exactUpTo: 100_000 });
      const exact = tokenizers[encoding](text);
      expect(estimate.method).toBe('sampled');
      expect(Math.abs(estimate.tokens - exact) / exact).toBeLessThan(0.03);
    }
  });

  it('handles one huge line with no line breaks', async () => {
    const text = 'lorem ipsum dolor sit amet, '.repeat(100_000);
    await using artifact = await spool(text);
    const estimate = await estimateTokens(artifact.reader, { exactUpTo: 1024 });
    const exact = tokenizers.o200k_base(text);
    expect(estimate.method).toBe('sampled');
    expect(Math.abs(estimate.tokens - exact) / exact).toBeLessThan(0.03);
  });

  it('stops with E_ABORTED when the signal fires mid-count', async () => {
    // An exact count of 20 MiB takes seconds, so only an abort seen mid-count rejects.
    await expect(
      estimateTokens(log.reader, {
        exactUpTo: Number.POSITIVE_INFINITY,
        signal: AbortSignal.timeout(50),
      }),
    ).rejects.toMatchObject({ code: 'E_ABORTED' });
  });
});

describe('estimateTokens: other encodings and bad input', () => {
  it('approximates bytes / 4 for an encoding it has no tokenizer for', async () => {
    await using artifact = await spool('x'.repeat(1_001));
    for (const encoding of ['p50k_base', 'claude', 'toString']) {
      expect(await estimateTokens(artifact.reader, { encoding })).toEqual({
        tokens: 251,
        encoding,
        method: 'approximate',
      });
    }
  });

  it('rejects an aborted signal before reading', async () => {
    await using artifact = await spool('some text\n');
    const controller = new AbortController();
    controller.abort();
    const error = await estimateTokens(artifact.reader, { signal: controller.signal }).catch(
      (caught: unknown) => caught,
    );
    expect(SpoolforgeError.isInstance(error) && error.code).toBe('E_ABORTED');
  });

  it('rejects a negative exactUpTo or byteLength', async () => {
    await using artifact = await spool('some text\n');
    await expect(estimateTokens(artifact.reader, { exactUpTo: -1 })).rejects.toMatchObject({
      code: 'E_INVALID_ARGUMENT',
    });
    await expect(estimateTokens(artifact.reader, { byteLength: -5 })).rejects.toMatchObject({
      code: 'E_INVALID_ARGUMENT',
    });
  });
});
