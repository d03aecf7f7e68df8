import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import cl100kRanks from 'gpt-tokenizer/bpeRanks/cl100k_base';
import o200kRanks from 'gpt-tokenizer/bpeRanks/o200k_base';
import { countTokens as countCl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';
import {
  CL100K_TOKEN_SPLIT_REGEX,
  O200K_TOKEN_SPLIT_REGEX,
} from 'gpt-tokenizer/encodingParams/constants';
import { loadTokenizer, type Tokenizer } from 'spoolforge/engine';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateLog } from '../../bench/shared/generate-log.js';
import { encodeVocabulary } from '../../scripts/build-vocabularies.mjs';
import { BpeVocabulary } from '../../src/artifact/tokens/bpe-vocabulary.js';
import { splitPatterns } from '../../src/artifact/tokens/split-patterns.js';
import { tokenizerCorpus } from '../helpers/tokenizer-corpus.js';

// gpt-tokenizer itself is the oracle: every count here is compared with its count.
const plainText = { disallowedSpecial: new Set<string>() };
const encodings = {
  o200k_base: {
    reference: (text: string) => countO200k(text, plainText),
    ranks: o200kRanks,
    pattern: O200K_TOKEN_SPLIT_REGEX,
  },
  cl100k_base: {
    reference: (text: string) => countCl100k(text, plainText),
    ranks: cl100kRanks,
    pattern: CL100K_TOKEN_SPLIT_REGEX,
  },
};
const encoder = new TextEncoder();
const byteOrderMark = [0xef, 0xbb, 0xbf];

/** The texts whose counts differ, with both counts (empty when all agree). */
function mismatches(tokenizer: Tokenizer, reference: (text: string) => number, texts: string[]) {
  const found: { text: string; ours: number; reference: number }[] = [];
  for (const text of texts) {
    const ours = tokenizer.count(text);
    const expected = reference(text);
    if (ours !== expected) found.push({ text, ours, reference: expected });
  }
  return found.slice(0, 5);
}

for (const [encoding, { reference, ranks, pattern }] of Object.entries(encodings)) {
  describe(`the ${encoding} counter against gpt-tokenizer`, () => {
    let tokenizer: Tokenizer;
    beforeAll(async () => {
      tokenizer = (await loadTokenizer(encoding)) as Tokenizer;
    });

    it('splits with the same pattern', () => {
      expect(splitPatterns[encoding as keyof typeof splitPatterns]).toBe(pattern.source);
    });

    it('finds every rank of gpt-tokenizer at its bytes, and no other', () => {
      const path = fileURLToPath(new URL(`../../dist/tokens/${encoding}.bin`, import.meta.url));
      const vocabulary = BpeVocabulary.parse(encoding, readFileSync(path));
      const wrong: number[] = [];
      ranks.forEach((token, rank) => {
        const bytes = typeof token === 'string' ? encoder.encode(token) : Uint8Array.from(token);
        // gpt-tokenizer never finds a token stored as bytes that decode with a byte order mark.
        const unreachable =
          typeof token !== 'string' && byteOrderMark.every((byte, index) => bytes[index] === byte);
        const found = vocabulary.rank(bytes, 0, bytes.length);
        if (found !== (unreachable ? -1 : rank)) wrong.push(rank);
      });
      expect(wrong.slice(0, 10)).toEqual([]);
      expect(vocabulary.rank(encoder.encode('no such token here'), 0, 18)).toBe(-1);
    });

    it('counts each token text and random pairs of them alike', () => {
      const texts = ranks.filter((token): token is string => typeof token === 'string');
      let seed = 7;
      const next = () => {
        seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
        return texts[seed % texts.length] as string;
      };
      for (let pair = 0; pair < 20_000; pair++) texts.push(next() + next());
      expect(mismatches(tokenizer, reference, texts)).toEqual([]);
    });

    it('counts a varied corpus alike (logs, code, scripts, emoji, U+FFFD, random Unicode)', () => {
      expect(mismatches(tokenizer, reference, tokenizerCorpus())).toEqual([]);
    });

    it('counts 4 MiB of the generated log alike, in 64 KiB slices', async () => {
      const texts: string[] = [];
      for await (const chunk of generateLog({ size: 4 * 1024 * 1024 })) {
        const text = Buffer.from(chunk).toString('utf8');
        for (let start = 0; start < text.length; start += 65_536) {
          texts.push(text.slice(start, start + 65_536));
        }
        if (texts.length >= 64) break;
      }
      expect(mismatches(tokenizer, reference, texts)).toEqual([]);
    });

    it('counts the same after its cache is emptied, and when passed along unbound', () => {
      const { count, clearCache } = tokenizer;
      const text = 'request_id=7f3a9c2e user=alice@example.com path=/api/v2/items?page=3\n';
      const before = count(text);
      clearCache();
      expect(count(text)).toBe(before);
      expect(before).toBe(reference(text));
    });
  });
}

describe('the vocabulary generator', () => {
  it('writes what BpeVocabulary reads, a token stored with a byte order mark left out', () => {
    const file = encodeVocabulary('test', ['a', 'b', 'ab', [0xff], [0xef, 0xbb, 0xbf, 0x61]]);
    const vocabulary = BpeVocabulary.parse('test', file);
    const bytes = Uint8Array.from([0x61, 0x62, 0xff, 0xef, 0xbb, 0xbf, 0x61]);
    expect(vocabulary.rank(bytes, 0, 2)).toBe(2);
    expect(vocabulary.rank(bytes, 2, 3)).toBe(3);
    expect(vocabulary.rank(bytes, 3, 7)).toBe(-1);
    // gpt-tokenizer's merge finds `a` for the mark and `a`: so does mergeRank.
    expect(vocabulary.mergeRank(bytes, 3, 7)).toBe(0);
    expect(vocabulary.mergeRank(bytes, 3, 6)).toBe(-1);
  });

  it('refuses a table it cannot hold exactly', () => {
    const holed = ['a'];
    holed[2] = 'b';
    // A repeated token, a missing rank, UTF-8 stored as bytes, an empty token.
    const tables = [['a', 'a'], holed, ['a', [0x62]], ['a', '']];
    for (const table of tables) {
      expect(() => encodeVocabulary('test', table)).toThrow(/^test: rank 1 /);
    }
  });
});

describe('a vocabulary file', () => {
  it('of another layout or cut short is E_IO, naming the encoding', () => {
    const path = fileURLToPath(new URL('../../dist/tokens/o200k_base.bin', import.meta.url));
    const file = readFileSync(path);
    for (const damaged of [file.subarray(0, file.length - 1), Buffer.from('not a vocabulary')]) {
      expect(() => BpeVocabulary.parse('o200k_base', damaged)).toThrow(
        expect.objectContaining({ code: 'E_IO', message: expect.stringContaining('o200k_base') }),
      );
    }
  });

  it('missing from an install is E_IO naming its path, and a later call tries again', () => {
    const root = fileURLToPath(new URL('../..', import.meta.url));
    const install = mkdtempSync(join(tmpdir(), 'spoolforge-no-vocabulary-'));
    try {
      cpSync(join(root, 'dist'), join(install, 'dist'), { recursive: true });
      cpSync(join(root, 'package.json'), join(install, 'package.json'));
      symlinkSync(join(root, 'node_modules'), join(install, 'node_modules'));
      rmSync(join(install, 'dist', 'tokens', 'o200k_base.bin'));
      const script = `const { countTextTokens } = await import('./dist/engine.js');
        const codes = [];
        for (let attempt = 0; attempt < 2; attempt++) {
          await countTextTokens('hello').catch((error) => codes.push(error.code, error.message));
        }
        console.log(JSON.stringify(codes));`;
      const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
        cwd: install,
        encoding: 'utf8',
      });
      const [code, message, secondCode] = JSON.parse(run.stdout) as string[];
      expect(code).toBe('E_IO');
      expect(message).toContain(join(install, 'dist', 'tokens', 'o200k_base.bin'));
      expect(secondCode).toBe('E_IO');
    } finally {
      rmSync(install, { recursive: true, force: true });
    }
  });
});
