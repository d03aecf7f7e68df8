import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FileSpoolReader, SpoolforgeError } from 'spoolforge';
import {
  buildLineIndexInParallel,
  compileMatcher,
  fileParts,
  grepScan,
  LineIndex,
  parallelGrepCount,
  readerChunks,
  seekLine,
} from 'spoolforge/engine';
import { describe, expect, it } from 'vitest';
import { edgeCaseInputs } from '../helpers/edge-case-inputs.js';
import { tempDirectory } from '../helpers/temp-files.js';

/** Lines of varied length, some very long, so part boundaries fall mid-line everywhere. */
function variedLog(lineCount: number): string {
  return Array.from({ length: lineCount }, (_, line) => {
    const filler = line % 401 === 0 ? 'z'.repeat(20_000) : '.'.repeat((line * 7919) % 120);
    const level = line % 13 === 0 ? 'ERROR' : line % 5 === 0 ? 'warn' : 'INFO';
    return `${line} ${level} request ${filler} ${line % 29 === 0 ? 'Timeout' : 'ok'}`;
  }).join('\n');
}

const inputs: Record<string, Uint8Array> = {
  ...edgeCaseInputs(),
  'varied log': Buffer.from(variedLog(20_000)),
  'varied log, final newline': Buffer.from(`${variedLog(5_000)}\n`),
};

async function sequentialCount(path: string, pattern: string, options: object, invert: boolean) {
  const matcher = compileMatcher(pattern, options);
  try {
    const reader = new FileSpoolReader(path);
    const { matchCount } = await grepScan(
      readerChunks(reader, { reuseBuffers: true }),
      { matcher, invert, countOnly: true },
      { line: () => true, separator: () => undefined },
    );
    await reader.close();
    return matchCount;
  } finally {
    await matcher.dispose();
  }
}

describe.each(Object.entries(inputs))('parallel scans of %s', (_name, bytes) => {
  it('split into line-aligned parts that cover every byte once', async () => {
    const path = join(await tempDirectory(), 'input.log');
    await writeFile(path, bytes);
    for (const threads of [1, 2, 3, 7]) {
      const parts = await fileParts(path, { threads });
      let expectedStart = 0;
      for (const part of parts) {
        expect(part.start).toBe(expectedStart);
        expect(part.start === 0 || bytes[part.start - 1] === 0x0a).toBe(true);
        expectedStart = part.end;
      }
      expect(expectedStart).toBe(bytes.length);
    }
  });

  it('build the index one pass builds, and find every sampled line at the same offset', async () => {
    const path = join(await tempDirectory(), 'input.log');
    await writeFile(path, bytes);
    const sequential = new LineIndex({ stride: 4096 });
    sequential.append(bytes);
    const reader = new FileSpoolReader(path);
    for (const threads of [2, 3, 7]) {
      const parallel = await buildLineIndexInParallel(path, { threads, stride: 4096 });
      expect(parallel.lineCount).toBe(sequential.lineCount);
      expect(parallel.byteLength).toBe(sequential.byteLength);
      const step = Math.max(1, Math.floor(sequential.lineCount / 97));
      for (let line = 0; line <= sequential.lineCount; line += step) {
        const expected = await seekLine(reader, sequential.checkpointFor(line), line);
        expect(await seekLine(reader, parallel.checkpointFor(line), line)).toBe(expected);
      }
    }
    await reader.close();
  });

  it('count what one grep pass counts, for literals, -i, regexes and -v', async () => {
    const path = join(await tempDirectory(), 'input.log');
    await writeFile(path, bytes);
    const cases: [string, object, boolean][] = [
      ['ERROR', { fixed: true }, false],
      ['timeout', { ignoreCase: true }, false],
      ['ERROR .*Timeout', {}, false],
      ['^\\d+ w', {}, false],
      ['INFO', {}, true],
      ['', {}, false],
    ];
    for (const [pattern, options, invert] of cases) {
      const expected = await sequentialCount(path, pattern, options, invert);
      for (const threads of [2, 5]) {
        const counted = await parallelGrepCount(path, pattern, { ...options, invert, threads });
        expect(counted, `${pattern} ${JSON.stringify(options)} -v=${invert}`).toBe(expected);
      }
    }
  });
});

describe('parallel grep count errors', () => {
  it('refuses an invalid pattern before starting threads, and a missing file', async () => {
    const path = join(await tempDirectory(), 'input.log');
    await writeFile(path, 'a\n');
    const invalid = await parallelGrepCount(path, '(unclosed', { threads: 2 }).catch((e) => e);
    expect(SpoolforgeError.isInstance(invalid) && invalid.code).toBe('E_REGEX_INVALID');
    const missing = await parallelGrepCount(`${path}.gone`, 'a', { threads: 2 }).catch((e) => e);
    expect(SpoolforgeError.isInstance(missing) && missing.code).toBe('E_FILE_NOT_FOUND');
    expect((await readFile(path)).toString()).toBe('a\n');
  });
});
