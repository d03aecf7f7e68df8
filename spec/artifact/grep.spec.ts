import { SpooledArtifact, SpoolforgeError, spool } from 'spoolforge';
import { describe, expect, it } from 'vitest';
import { multibyteText } from '../helpers/chunked.js';
import { referenceTextLines } from '../helpers/reference-lines.js';
import { tempFile } from '../helpers/temp-files.js';

const log = [
  'INFO start', // 0
  'DEBUG a', // 1
  'ERROR disk full', // 2
  'INFO b', // 3
  'INFO c', // 4
  'INFO d', // 5
  'error lowercase', // 6
  'INFO e', // 7
  'ERROR again', // 8
  'INFO end',
].join('\n');

const matches = (lines: number[]) =>
  lines.map((lineNumber) => expect.objectContaining({ lineNumber, isMatch: true }));

describe('SpooledArtifact.grep', () => {
  it('finds literals and regexes with 0-based line numbers', async () => {
    await using artifact = await spool(log);
    expect((await artifact.grep('ERROR')).lines).toEqual(matches([2, 8]));
    expect((await artifact.grep('^INFO [a-c]$')).lines).toEqual(matches([3, 4]));
    expect((await artifact.grep('error', { ignoreCase: true })).matchCount).toBe(3);
    expect((await artifact.grep('INFO', { invert: true })).lines.map((line) => line.text)).toEqual([
      'DEBUG a',
      'ERROR disk full',
      'error lowercase',
      'ERROR again',
    ]);
    expect(await artifact.grep('INFO', { count: true })).toEqual({ matchCount: 6, lines: [] });
    expect((await artifact.grep('INFO', { maxCount: 2 })).lines).toEqual(matches([0, 3]));
  });

  it('treats -F patterns literally and splits a pattern on newlines into alternatives', async () => {
    await using artifact = await spool('a.c\nabc\n(x)\n');
    expect((await artifact.grep('a.c', { fixed: true })).lines).toEqual(matches([0]));
    expect((await artifact.grep('a.c')).lines).toEqual(matches([0, 1]));
    expect((await artifact.grep('(x)', { fixed: true })).lines).toEqual(matches([2]));
    expect((await artifact.grep('abc\n(x)', { fixed: true })).lines).toEqual(matches([1, 2]));
    expect((await artifact.grep('')).matchCount).toBe(3);
  });

  it('gives context lines around matches, merged where groups touch', async () => {
    await using artifact = await spool(log);
    const { lines } = await artifact.grep('ERROR', { before: 1, after: 2 });
    expect(lines.map((line) => [line.lineNumber, line.isMatch])).toEqual([
      [1, false],
      [2, true],
      [3, false],
      [4, false],
      [7, false],
      [8, true],
      [9, false],
    ]);
    const withMax = await artifact.grep('INFO', { maxCount: 1, after: 2 });
    expect(withMax.lines.map((line) => [line.lineNumber, line.isMatch])).toEqual([
      [0, true],
      [1, false],
      [2, false],
    ]);
  });

  it('folds case for an ASCII literal exactly as a JavaScript regex with the i flag does', async () => {
    const lines = [
      'Disk Quota',
      'DISK QUOTA ÀÉ',
      'dıșk quota',
      'disk \u212Auota',
      'ÀDISK QUOTAÉ',
      'disk-quota',
      'DiSk QuOtA\r',
    ];
    await using artifact = await spool(lines.join('\n'));
    const expected = lines.flatMap((text, lineNumber) =>
      /disk quota/i.test(text) ? [lineNumber] : [],
    );
    expect(expected).toEqual([0, 1, 4, 6]);
    expect((await artifact.grep('disk QUOTA', { ignoreCase: true })).lines).toEqual(
      matches(expected),
    );
    expect(
      (await artifact.grep('disk QUOTA', { ignoreCase: true, fixed: true, invert: true }))
        .matchCount,
    ).toBe(3);
  });

  it('keeps \\r in lines: `.` matches it and `$` is the end of the line', async () => {
    await using artifact = await spool('ab\r\na\r\n');
    expect((await artifact.grep('b.$')).lines).toEqual(matches([0]));
    expect((await artifact.grep('a$')).matchCount).toBe(0);
    expect((await artifact.grep('a\r$')).lines).toEqual(matches([1]));
  });

  it('matches inside a 5 MiB line and in characters split across chunks', async () => {
    const long = `${'q'.repeat(5 * 1024 * 1024)}NEEDLE\n`;
    await using artifact = SpooledArtifact.fromFile(await tempFile(`head\n${long}tail\n`));
    const { lines } = await artifact.grep('NEEDLE$');
    expect(lines.map((line) => [line.lineNumber, line.text.length])).toEqual([
      [1, 5 * 1024 * 1024 + 6],
    ]);
    const bytes = multibyteText(4 * 1024 * 1024 + 200_000);
    await using multibyte = SpooledArtifact.fromFile(await tempFile(bytes));
    const expected = referenceTextLines(bytes)
      .map((text, lineNumber) => ({ lineNumber, text, isMatch: true }))
      .filter((line) => /🎉\d*7語é/.test(line.text));
    expect((await multibyte.grep('🎉\\d*7語é')).lines).toEqual(expected);
    expect((await multibyte.grep('本🎉1', { fixed: true })).matchCount).toBe(
      referenceTextLines(bytes).filter((text) => text.includes('本🎉1')).length,
    );
  });

  it('keeps before-context intact across recycled chunk buffers', async () => {
    // Context lines at the end of the first 4 MiB chunk, then a line longer than a chunk: by the
    // time the match arrives, the first chunk's buffer has been read into again.
    const filler = (count: number, tag: string) =>
      Array.from({ length: count }, (_, index) => `${`${tag} ${index}`.padEnd(99, '.')}\n`).join(
        '',
      );
    let text = filler(Math.floor((4 * 1024 * 1024) / 100) - 2, 'early');
    text += `${'L'.repeat(5 * 1024 * 1024)}\nMATCH one\n${filler(50_000, 'late')}MATCH two\n`;
    await using artifact = SpooledArtifact.fromFile(await tempFile(text));
    const lines = text.split('\n');
    const line = (index: number) => ({
      lineNumber: index,
      text: lines[index],
      isMatch: lines[index]?.startsWith('MATCH'),
    });
    const first = lines.indexOf('MATCH one');
    const second = lines.indexOf('MATCH two');
    const { lines: found } = await artifact.grep('^MATCH', { before: 3 });
    expect(found).toEqual(
      [first - 3, first - 2, first - 1, first, second - 3, second - 2, second - 1, second].map(
        line,
      ),
    );
  });

  it('stops a catastrophic regex at its time budget while the host stays responsive', async () => {
    await using artifact = await spool(`${'a'.repeat(40)}b\n`);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    const started = Date.now();
    const error = await artifact
      .grep('(a+)+\\b$', { timeout: 300 })
      .catch((caught: unknown) => caught);
    clearInterval(timer);
    expect(SpoolforgeError.isInstance(error) && error.code).toBe('E_REGEX_TIMEOUT');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(ticks).toBeGreaterThan(5);
  });

  it('aborts a running regex through its signal', async () => {
    await using artifact = await spool(`${'a'.repeat(40)}b\n`);
    await expect(
      artifact.grep('(a+)+\\b$', { signal: AbortSignal.timeout(100) }),
    ).rejects.toMatchObject({
      code: 'E_ABORTED',
    });
  });

  it('reports an invalid pattern or option as a SpoolforgeError, not a raw SyntaxError', async () => {
    await using artifact = await spool('x\n');
    await expect(artifact.grep('(unclosed')).rejects.toMatchObject({
      code: 'E_REGEX_INVALID',
      message: 'Invalid regular expression /(unclosed/: Unterminated group',
    });
    await expect(artifact.grep('x', { maxCount: -1 })).rejects.toMatchObject({
      code: 'E_INVALID_ARGUMENT',
    });
  });

  it('refuses to gather more than maxStringBytes of matches', async () => {
    await using artifact = await spool('match\n'.repeat(1000), { maxStringBytes: 100 });
    await expect(artifact.grep('match')).rejects.toMatchObject({ code: 'E_ARTIFACT_TOO_LARGE' });
    expect((await artifact.grep('match', { count: true })).matchCount).toBe(1000);
  });
});
