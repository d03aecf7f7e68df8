import { type MarkdownOutline, SpooledMarkdownArtifact, SpoolWriter } from 'spoolforge';
import { afterEach, describe, expect, it } from 'vitest';
import { tempFile } from '../helpers/temp-files.js';
import { generateMarkdown } from './markdown-fixtures.js';

const opened: SpooledMarkdownArtifact[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((artifact) => artifact.close()));
});

async function markdownFile(text: string, windowBytes: number) {
  const artifact = SpooledMarkdownArtifact.fromFile(await tempFile(text, 'document.md'), {
    windowBytes,
  });
  opened.push(artifact);
  return artifact;
}

/** The outline without how it was cut into windows, which is what differs between runs. */
function structure({ windows: _windows, ...rest }: MarkdownOutline) {
  return rest;
}

describe('SpooledMarkdownArtifact windows', () => {
  it('gives the same outline and text in 2 KiB windows as in one window', async () => {
    const { text, expected } = generateMarkdown(60, { longEvery: 30, longLines: 1_200 });
    const whole = await markdownFile(text, Number.POSITIVE_INFINITY);
    const windowed = await markdownFile(text, 2 * 1024);
    const [wholeOutline, windowedOutline] = [await whole.outline(), await windowed.outline()];
    expect(wholeOutline.windows).toHaveLength(1);
    expect(windowedOutline.windows.length).toBeGreaterThan(10);
    // A long fence and a long table are cut inside and resumed under their opening lines.
    expect(windowedOutline.windows.some((window) => window.prefix.length > 0)).toBe(true);
    expect(structure(windowedOutline)).toEqual(structure(wholeOutline));
    expect(wholeOutline).toMatchObject(expected);
    expect(await windowed.text()).toEqual(await whole.text());
    expect(await windowed.text(2_000, 2_100)).toEqual(await whole.text(2_000, 2_100));
  }, 60_000);

  it('parses a 1 MB one-paragraph line of links and emphasis in pieces: linear, every link on its line', async () => {
    // micromark alone takes minutes and ~1 GB on this line (its inline resolution is quadratic).
    const items = Array.from(
      { length: 25_000 },
      (_, index) => `word${index} **bold** [link ${index}](https://example.com/${index}) 7. x`,
    );
    const text = `# Export\n\n${items.join(' ')}\n\n## After\n`;
    const artifact = await markdownFile(text, 64 * 1024);
    const links = await artifact.links();
    expect(links).toHaveLength(items.length);
    expect(links.every((link) => link.lineNumber === 2)).toBe(true);
    expect(links.at(-1)).toMatchObject({ text: 'link 24999', url: 'https://example.com/24999' });
    // No piece starts a heading, list or quote of its own; the real headings keep their lines.
    expect((await artifact.headings()).map(({ lineNumber, text }) => [lineNumber, text])).toEqual([
      [0, 'Export'],
      [4, 'After'],
    ]);
  }, 60_000);

  it('keeps every block of a document whose long lines are in code, lists, tables and quotes', async () => {
    const long = Array.from({ length: 9_000 }, (_, index) => `word${index}`).join(' ');
    const headingsOf = async (text: string) =>
      (await (await markdownFile(text, 64 * 1024)).headings()).map((heading) => heading.text);
    const listFence = `# A\n\n- item\n  \`\`\`js\n  ${long}\n  \`\`\`\n\n# B\n\ntext\n\n## C\n`;
    expect(await headingsOf(listFence)).toEqual(['A', 'B', 'C']);
    const fences = await (await markdownFile(listFence, 64 * 1024)).codeBlocks();
    expect(fences.map(({ start, end }) => [start, end])).toEqual([[3, 6]]);
    // No space to split at: parsed whole, so no heading is made of its end.
    expect(await headingsOf(`# A\n\n${'x'.repeat(40_000)} # Fake heading\n\n# B\n`)).toEqual([
      'A',
      'B',
    ]);
    const indented = `# A\n\n    ${long}\n    code2\n---\n\n# B\n`;
    expect(await headingsOf(indented)).toEqual(['A', 'B']);
    const table = `# A\n\n| h1 | h2 |\n|---|---|\n| ${long} | x |\n| r2 | y |\n| r3 | z |\n\n# B\n`;
    const [parsedTable] = await (await markdownFile(table, 64 * 1024)).tables();
    expect(parsedTable).toMatchObject({ start: 2, end: 7, columns: ['h1', 'h2'], rowCount: 3 });
    expect(await headingsOf(`# A\n\n> ${long}\n> more quote\n\n# B\n`)).toEqual(['A', 'B']);
  }, 60_000);

  it('outlines a multi-MB document in small windows exactly as it was built', async () => {
    const { text, expected } = generateMarkdown(3_400, { longEvery: 400, longLines: 2_500 });
    expect(text.length).toBeGreaterThan(2 * 1024 * 1024);
    const small = await markdownFile(text, 4 * 1024);
    const outline = await small.outline();
    expect(outline.windows.length).toBeGreaterThan(400);
    expect(outline).toMatchObject(expected);
    expect(outline.headings.filter((heading) => heading.text.includes('log'))).toEqual([]);
    // Windows cover every line once, in order.
    let next = 0;
    for (const window of outline.windows) {
      expect(window.startLine).toBe(next);
      next += window.lineCount;
    }
    expect(next).toBe(expected.lineCount);
  }, 120_000);

  it('answers for the bytes that have arrived, and again once the artifact grows', async () => {
    const writer = new SpoolWriter();
    const artifact = SpooledMarkdownArtifact.fromWriter(writer, { windowBytes: 1024 });
    opened.push(artifact);
    await writer.write('# First\n\n```\n# in a fence still open\n');
    expect(await artifact.headings()).toEqual([
      { lineNumber: 0, depth: 1, text: 'First', style: 'atx' },
    ]);
    await writer.write('```\n\n# Second\n');
    await writer.end();
    expect((await artifact.headings()).map((heading) => heading.text)).toEqual(['First', 'Second']);
    expect(await artifact.codeBlocks()).toEqual([
      { start: 2, end: 5, lang: undefined, meta: undefined, fenced: true },
    ]);
  });

  it('stops between windows when the signal fires', async () => {
    const { text } = generateMarkdown(200);
    const artifact = await markdownFile(text, 1024);
    const controller = new AbortController();
    controller.abort();
    await expect(artifact.outline({ signal: controller.signal })).rejects.toMatchObject({
      code: 'E_ABORTED',
    });
    expect((await artifact.headings()).length).toBe(800);
  });
});
