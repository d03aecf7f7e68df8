import { MemorySpoolReader, SpooledMarkdownArtifact } from 'spoolforge';
import { describe, expect, it } from 'vitest';

function markdown(text: string, windowBytes?: number) {
  return new SpooledMarkdownArtifact(
    new MemorySpoolReader(text),
    windowBytes === undefined ? {} : { windowBytes },
  );
}

async function headingLines(text: string) {
  return (await markdown(text).headings()).map(
    ({ lineNumber, depth, text: heading }) => `${lineNumber}:${depth}:${heading}`,
  );
}

describe('SpooledMarkdownArtifact headings', () => {
  it('is kind markdown', () => {
    expect(markdown('# A').kind).toBe('markdown');
  });

  it('skips # lines inside fenced code: backticks, tildes, longer closing fences, unclosed fences', async () => {
    const text = [
      '# Real',
      '```',
      '# in backticks',
      '```',
      '~~~~ sh',
      '# in tildes',
      '~~~',
      '# a shorter fence does not close',
      '~~~~~~',
      '# After',
      '````',
      '# unclosed runs to the end',
      '',
      '# still code',
    ].join('\n');
    expect(await headingLines(text)).toEqual(['0:1:Real', '9:1:After']);
  });

  it('skips indented code and #hashtag, and reads closing sequences', async () => {
    const text = ['    # indented code', '', '#hashtag', '', '## Closed ##', '#\tTab', '#'].join(
      '\n',
    );
    expect(await headingLines(text)).toEqual(['4:2:Closed', '5:1:Tab', '6:1:']);
  });

  it('finds setext headings, but not --- after a blank line (a thematic break)', async () => {
    const text = [
      'Title',
      '=====',
      '',
      'Sub *title*',
      'on two lines',
      '---',
      '',
      '---',
      'Text',
    ].join('\n');
    const headings = await markdown(text).headings();
    expect(headings).toEqual([
      { lineNumber: 0, depth: 1, text: 'Title', style: 'setext' },
      { lineNumber: 3, depth: 2, text: 'Sub title on two lines', style: 'setext' },
    ]);
  });

  it('finds headings inside block quotes and list items on their real lines', async () => {
    const text = [
      '> # Quoted',
      '> text',
      '',
      '- item',
      '',
      '  ## In item',
      '',
      '1. > ### Deep',
    ].join('\n');
    expect(await headingLines(text)).toEqual(['0:1:Quoted', '5:2:In item', '7:3:Deep']);
  });

  it('filters by depth', async () => {
    const artifact = markdown('# A\n## B\n### C\n## D\n');
    expect((await artifact.headings({ depth: 2 })).map((heading) => heading.text)).toEqual([
      'A',
      'B',
      'D',
    ]);
  });
});

describe('SpooledMarkdownArtifact front matter', () => {
  it('returns YAML front matter, which holds no headings', async () => {
    const artifact = markdown('---\ntitle: Guide\n# not a heading\n---\n# Guide\n');
    expect(await artifact.frontmatter()).toEqual({
      format: 'yaml',
      start: 0,
      end: 4,
      text: 'title: Guide\n# not a heading',
    });
    expect(await headingLines('---\ntitle: Guide\n# not a heading\n---\n# Guide\n')).toEqual([
      '4:1:Guide',
    ]);
  });

  it('returns TOML front matter', async () => {
    const artifact = markdown('+++\ntitle = "Guide"\n+++\n\n# Guide\n');
    expect(await artifact.frontmatter()).toEqual({
      format: 'toml',
      start: 0,
      end: 3,
      text: 'title = "Guide"',
    });
  });

  it('only at the very start: later --- blocks are breaks and setext underlines', async () => {
    const artifact = markdown('Intro\n\n---\ntitle: x\n---\n');
    expect(await artifact.frontmatter()).toBeUndefined();
    expect(await artifact.headings()).toEqual([
      { lineNumber: 3, depth: 2, text: 'title: x', style: 'setext' },
    ]);
  });
});

describe('SpooledMarkdownArtifact line endings', () => {
  const lines = [
    '---',
    'title: x',
    '---',
    '# Title',
    '',
    'See [docs][d] and ![logo](l.png "Logo").',
    '',
    '```js',
    '# code',
    '```',
    '',
    '| a | b |',
    '|---|---|',
    '| 1 | 2 |',
    '',
    'Setext',
    '---',
    '',
    '[d]: https://docs.example "Docs"',
  ];

  it('gives a CRLF document the same answers, line for line, as its LF twin', async () => {
    const lf = await markdown(lines.join('\n')).outline();
    const crlf = await markdown(lines.join('\r\n')).outline();
    expect(crlf).toEqual(lf);
    expect(lf.headings.map((heading) => heading.lineNumber)).toEqual([3, 15]);
    expect(await markdown(lines.join('\r\n')).text()).toEqual(
      await markdown(lines.join('\n')).text(),
    );
  });

  it('numbers lines by \\n only: a heading after a lone \\r is on the \\n line holding it', async () => {
    const artifact = markdown('intro\r# After a lone CR\nnext\n# Own line\n');
    expect(await artifact.lineCount()).toBe(3);
    expect(await headingLines('intro\r# After a lone CR\nnext\n# Own line\n')).toEqual([
      '0:1:After a lone CR',
      '2:1:Own line',
    ]);
  });

  it('ignores a byte order mark', async () => {
    expect(await headingLines('\uFEFF# Title\n')).toEqual(['0:1:Title']);
  });
});

describe('SpooledMarkdownArtifact code blocks, links, images, tables', () => {
  const text = [
    '```ts title="a.ts"',
    'const a = 1;',
    '```',
    '',
    '    indented',
    '',
    '~~~ Python',
    'print(1)',
    '~~~',
    '',
    'Before [use][later] and [inline](https://a.example "A") and [Collapsed][] and [shortcut].',
    'Auto <https://auto.example>, <me@mail.example>, www.literal.example and [undefined][nope].',
    '![alt *text*](img.png "Img") ![ref image][later]',
    '',
    '| Name | Size |',
    '|:-----|-----:|',
    '| a    | 1    |',
    '| b    | 2    |',
    '| c    | 3    |',
    '',
    '[later]: https://later.example "Later"',
    '[collapsed]: https://collapsed.example',
    '[Shortcut]: <https://shortcut.example/a b>',
    '[later]: https://second-definition.example',
  ].join('\n');

  it('lists code blocks with their fences, language and meta, and filters by language', async () => {
    const artifact = markdown(text);
    expect(await artifact.codeBlocks()).toEqual([
      { start: 0, end: 3, lang: 'ts', meta: 'title="a.ts"', fenced: true },
      { start: 4, end: 5, lang: undefined, meta: undefined, fenced: false },
      { start: 6, end: 9, lang: 'Python', meta: undefined, fenced: true },
    ]);
    expect(await artifact.codeBlocks({ lang: 'python' })).toEqual([
      { start: 6, end: 9, lang: 'Python', meta: undefined, fenced: true },
    ]);
  });

  it('lists links: inline, references defined after use (first definition wins), autolinks', async () => {
    expect(await markdown(text).links()).toEqual([
      { lineNumber: 10, text: 'use', url: 'https://later.example', title: 'Later' },
      { lineNumber: 10, text: 'inline', url: 'https://a.example', title: 'A' },
      { lineNumber: 10, text: 'Collapsed', url: 'https://collapsed.example', title: undefined },
      { lineNumber: 10, text: 'shortcut', url: 'https://shortcut.example/a b', title: undefined },
      {
        lineNumber: 11,
        text: 'https://auto.example',
        url: 'https://auto.example',
        title: undefined,
      },
      { lineNumber: 11, text: 'me@mail.example', url: 'mailto:me@mail.example', title: undefined },
      {
        lineNumber: 11,
        text: 'www.literal.example',
        url: 'http://www.literal.example',
        title: undefined,
      },
    ]);
  });

  it('lists images with their alt text', async () => {
    expect(await markdown(text).images()).toEqual([
      { lineNumber: 12, text: 'alt text', url: 'img.png', title: 'Img' },
      { lineNumber: 12, text: 'ref image', url: 'https://later.example', title: 'Later' },
    ]);
  });

  it('resolves references to definitions in later windows', async () => {
    const filler = Array.from({ length: 200 }, (_, index) => `Paragraph ${index}.\n`).join('\n');
    const windowed = markdown(`[early][far]\n\n${filler}\n[far]: https://far.example\n`, 512);
    expect((await windowed.outline()).windows.length).toBeGreaterThan(3);
    expect(await windowed.links()).toEqual([
      { lineNumber: 0, text: 'early', url: 'https://far.example', title: undefined },
    ]);
  });

  it('lists GFM tables with their columns and body row count', async () => {
    expect(await markdown(text).tables()).toEqual([
      { start: 14, end: 19, columns: ['Name', 'Size'], rowCount: 3 },
    ]);
  });
});

describe('SpooledMarkdownArtifact sections and text', () => {
  const text = [
    '# Guide', // 0
    'Intro.',
    '## Install', // 2
    'Run it.',
    '### Linux', // 4
    'apt.',
    '## Usage', // 6
    'Use it.',
    '# Appendix', // 8
    '## Usage', // 9
    'Again.',
  ].join('\n');

  it('runs each section to the next heading of the same or smaller depth', async () => {
    expect(await markdown(text).sections()).toEqual([
      { index: 0, heading: 'Guide', depth: 1, start: 0, end: 8 },
      { index: 1, heading: 'Install', depth: 2, start: 2, end: 6 },
      { index: 2, heading: 'Linux', depth: 3, start: 4, end: 6 },
      { index: 3, heading: 'Usage', depth: 2, start: 6, end: 8 },
      { index: 4, heading: 'Appendix', depth: 1, start: 8, end: 11 },
      { index: 5, heading: 'Usage', depth: 2, start: 9, end: 11 },
    ]);
    expect((await markdown(text).sections({ depth: 1 })).map((section) => section.index)).toEqual([
      0, 4,
    ]);
  });

  it('reads one section by heading (ignoring case and #) or by index', async () => {
    const artifact = markdown(text);
    const install = await artifact.section('## INSTALL');
    expect(install).toMatchObject({ index: 1, start: 2, end: 6 });
    expect(install.lines.map((line) => line.text)).toEqual([
      '## Install',
      'Run it.',
      '### Linux',
      'apt.',
    ]);
    expect((await artifact.section(5)).lines.map((line) => line.lineNumber)).toEqual([9, 10]);
  });

  it('refuses an unknown heading, an ambiguous one, and an index out of range, naming what exists', async () => {
    const artifact = markdown(text);
    await expect(artifact.section('Uninstall')).rejects.toMatchObject({
      code: 'E_INVALID_ARGUMENT',
      message: expect.stringContaining('1: Install'),
    });
    await expect(artifact.section('usage')).rejects.toMatchObject({
      code: 'E_INVALID_ARGUMENT',
      message: expect.stringMatching(/2 sections .*3: Usage; 5: Usage/),
    });
    await expect(artifact.section(6)).rejects.toMatchObject({ code: 'E_INVALID_ARGUMENT' });
  });

  it('strips markup from text and keeps real line numbers', async () => {
    const artifact = markdown(
      [
        '# Title with `code`',
        '',
        'Some *emphasis*, **strong**, ~~gone~~ and [a link](https://x.example "t") &amp; \\*.',
        '<div>html</div>',
        '',
        '| a | b |',
        '|---|---|',
        '| 1 | 2 |',
        '',
        '```js',
        '  let x;',
        '```',
        '- [x] done',
        '',
        '[ref]: https://ref.example',
      ].join('\n'),
    );
    expect(await artifact.text()).toEqual([
      { lineNumber: 0, text: 'Title with code' },
      { lineNumber: 2, text: 'Some emphasis, strong, gone and a link & *.' },
      { lineNumber: 5, text: 'a\tb' },
      { lineNumber: 7, text: '1\t2' },
      { lineNumber: 10, text: '  let x;' },
      { lineNumber: 12, text: '[x] done' },
    ]);
    expect(await artifact.text(5, 7)).toEqual([{ lineNumber: 5, text: 'a\tb' }]);
    await expect(artifact.text(3, 1)).rejects.toMatchObject({ code: 'E_INVALID_ARGUMENT' });
  });
});
