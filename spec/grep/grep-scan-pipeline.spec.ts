import { compileMatcher, type GrepSink, grepScan, readerChunks } from 'spoolforge/engine';
import { describe, expect, it } from 'vitest';
import { grepReadOptions } from '../../src/grep/grep-scan.js';
import { FileSpoolReader } from '../../src/spool/file-spool-reader.js';
import { referenceTextLines } from '../helpers/reference-lines.js';
import { seededRandom } from '../helpers/seeded-random.js';
import { tempFile } from '../helpers/temp-files.js';

/** About 3 MiB of log lines: ERROR lines with and without a timeout after them, noise, and a few lines of 40 KB. */
function logText(): string {
  const next = seededRandom(42);
  const words = ['ERROR', 'INFO', 'timeout', 'tiimeout', 'disk', 'req=7', 'é', 'ok'];
  const lines: string[] = [];
  for (let size = 0; size < 3 * 1024 * 1024; ) {
    const count = 1 + Math.floor(next() * 12);
    const line = Array.from({ length: count }, () => words[Math.floor(next() * words.length)]).join(
      ' ',
    );
    lines.push(line);
    size += line.length + 1;
    // Lines longer than a 16 KiB chunk: reading them takes several chunks while a block waits.
    if (lines.length % 20_000 === 10) lines.push(`ok ${'x'.repeat(40_000)} ERROR timeout`);
  }
  return `${lines.join('\n')}\n`;
}

/** Collects what grep would print: `N:line` for a selected line, `N-line` for context, `--`. */
function collector(printed: string[]): GrepSink {
  const decoder = new TextDecoder();
  return {
    line(bytes, lineNumber, isMatch) {
      printed.push(`${lineNumber + 1}${isMatch ? ':' : '-'}${decoder.decode(bytes)}`);
      return true;
    },
    separator: () => void printed.push('--'),
  };
}

async function grep(path: string, pattern: string, chunkSize: number, options: object) {
  const reader = new FileSpoolReader(path);
  const matcher = compileMatcher(pattern, { timeout: 60_000 });
  const printed: string[] = [];
  try {
    const chunks = readerChunks(reader, { ...grepReadOptions, recycledChunkSize: chunkSize });
    const { matchCount } = await grepScan(
      chunks,
      { matcher, lineNumbers: true, ...options },
      collector(printed),
    );
    return { matchCount, printed };
  } finally {
    await matcher.dispose();
    await reader.close();
  }
}

describe('grepScan with a regex tested in a worker while the next block is read', () => {
  it('prints exactly the lines and context grep would, across many recycled blocks', async () => {
    const text = logText();
    const path = await tempFile(text);
    const lines = referenceTextLines(Buffer.from(text));
    // Prefiltered by its literals, and one the worker sees whole blocks of.
    for (const pattern of ['ERROR .*timeout', '^[a-z]+ [A-Z]{4,5}$']) {
      const regex = new RegExp(pattern, 's');
      const selected = lines.flatMap((line, index) => (regex.test(line) ? [index] : []));
      const isSelected = new Set(selected);
      for (const chunkSize of [16 * 1024, grepReadOptions.recycledChunkSize]) {
        const plain = await grep(path, pattern, chunkSize, {});
        expect(plain.matchCount).toBe(selected.length);
        expect(plain.printed).toEqual(selected.map((index) => `${index + 1}:${lines[index]}`));
        // -C 1: each selected line with its neighbours, groups apart separated by `--`.
        const shown = new Set(selected.flatMap((index) => [index - 1, index, index + 1]));
        const expected: string[] = [];
        let previous = -2;
        for (const index of [...shown]
          .filter((i) => i >= 0 && i < lines.length)
          .sort((a, b) => a - b)) {
          if (previous >= 0 && index > previous + 1) expected.push('--');
          expected.push(`${index + 1}${isSelected.has(index) ? ':' : '-'}${lines[index]}`);
          previous = index;
        }
        const context = await grep(path, pattern, chunkSize, {
          context: true,
          before: 1,
          after: 1,
        });
        expect(context.printed).toEqual(expected);
      }
    }
  });

  it('hands a text sink the runs of adjacent selected lines, and a last line without \\n alone', async () => {
    const text = `${logText()}ERROR timeout at the end`;
    const path = await tempFile(text);
    const lines = referenceTextLines(Buffer.from(text));
    for (const [pattern, maxCount] of [
      ['timeout', undefined],
      ['ERROR .*timeout', undefined],
      ['ERROR', 1000],
    ] as const) {
      const selected = lines.filter((line) => new RegExp(pattern, 's').test(line));
      const expected = selected.slice(0, maxCount ?? selected.length);
      const reader = new FileSpoolReader(path);
      const matcher = compileMatcher(pattern, { timeout: 60_000 });
      const printed: Buffer[] = [];
      let calls = 0;
      let counted = 0;
      try {
        const { matchCount } = await grepScan(
          readerChunks(reader, grepReadOptions),
          { matcher, ...(maxCount ? { maxCount } : {}) },
          {
            line(bytes) {
              printed.push(Buffer.from(bytes), Buffer.from('\n'));
              counted++;
              return true;
            },
            separator: () => undefined,
            text(run, lineCount) {
              printed.push(Buffer.from(run));
              calls++;
              counted += lineCount;
              return true;
            },
          },
        );
        expect(matchCount).toBe(expected.length);
      } finally {
        await matcher.dispose();
        await reader.close();
      }
      expect(Buffer.concat(printed).toString()).toBe(expected.map((line) => `${line}\n`).join(''));
      expect(counted).toBe(expected.length);
      // Adjacent matches (`timeout` is on most lines) went out together.
      if (pattern === 'timeout') expect(calls).toBeLessThan(expected.length / 2);
    }
  });

  it('stops at -m with a block still in the worker, and leaves no failure behind', async () => {
    const path = await tempFile(logText());
    const { matchCount, printed } = await grep(path, 'ERROR .*timeout', 16 * 1024, {
      maxCount: 3,
    });
    expect(matchCount).toBe(3);
    expect(printed).toHaveLength(3);
  });

  it('fails with the regex timeout, and no answer still on its way is left unhandled', async () => {
    const catastrophic = Buffer.from(`${'a'.repeat(30)}!\n`.repeat(3));
    async function* blocks() {
      for (let index = 0; index < 3; index++) yield catastrophic;
    }
    const matcher = compileMatcher('(a+)+\\b$', { timeout: 300 });
    try {
      await expect(grepScan(blocks(), { matcher, countOnly: true })).rejects.toMatchObject({
        code: 'E_REGEX_TIMEOUT',
      });
    } finally {
      await matcher.dispose();
    }
    // An unhandled rejection would surface here, failing the run.
    await new Promise((resolve) => setTimeout(resolve, 200));
  });

  it('disposes cleanly after a sink fails while a block is in the worker', async () => {
    const path = await tempFile(logText());
    const reader = new FileSpoolReader(path);
    const matcher = compileMatcher('^[a-z]+ [A-Z]{4,5}$');
    try {
      const chunks = readerChunks(reader, { ...grepReadOptions, recycledChunkSize: 16 * 1024 });
      const failing: GrepSink = {
        line: () => {
          throw new Error('output closed');
        },
        separator: () => undefined,
      };
      await expect(grepScan(chunks, { matcher }, failing)).rejects.toThrow('output closed');
    } finally {
      await matcher.dispose();
      await reader.close();
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  });
});
