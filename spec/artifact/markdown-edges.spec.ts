import { MemorySpoolReader, SpooledMarkdownArtifact } from 'spoolforge';
import { describe, expect, it } from 'vitest';

function markdown(text: string) {
  return new SpooledMarkdownArtifact(new MemorySpoolReader(text));
}

const linkList = async (text: string) =>
  (await markdown(text).links()).map(
    ({ lineNumber, text: label, url }) => `${lineNumber}:${label}:${url}`,
  );

describe('SpooledMarkdownArtifact edge cases', () => {
  it('finds GFM literal autolinks as GFM does: no bare domains, no trailing punctuation or entity', async () => {
    const text = [
      'Visit www.example.com/path. Or https://a.example/x_(y)) and me.too@mail.example, not',
      'example.com, ftp://x.example, www. or www.a_b.example; (www.paren.example) *www.em.example*',
      'https://b.example/?q=1&amp; and `www.in-code.example` and [www.in-label.example](u)',
    ].join('\n');
    expect(await linkList(text)).toEqual([
      '0:www.example.com/path:http://www.example.com/path',
      '0:https://a.example/x_(y):https://a.example/x_(y)',
      '0:me.too@mail.example:mailto:me.too@mail.example',
      '1:www.paren.example:http://www.paren.example',
      '1:www.em.example:http://www.em.example',
      '2:https://b.example/?q=1:https://b.example/?q=1',
      '2:www.in-label.example:u',
    ]);
  });

  it('puts each link on its own line after multi-line code spans, titles and a lone \\r', async () => {
    const text = 'a `b\nc` [x](u) d\ne [y](v "multi\nline") f\n[z](w)\npara\rwith [l](u)\n';
    expect(await linkList(text)).toEqual(['1:x:u', '2:y:v', '4:z:w', '5:l:u']);
  });

  it('keeps footnotes apart from link definitions', async () => {
    const artifact = markdown('Text[^1] and [^note].\n\n[^1]: The note.\n[^note]: Another.\n');
    expect(await artifact.links()).toEqual([]);
    expect((await artifact.outline()).definitions).toEqual([]);
  });

  it('reads heading and header cell text as plain text, links inside images included', async () => {
    const text = [
      '# A ![alt *t*](x) `code` &amp; \\*b\\* <span>h</span> [l](u)',
      '',
      '| *A* | `b` | [c](d) |',
      '|---|:-:|--|',
      '| 1 | 2 | 3 |',
      '',
      '![a [b](c)](d)',
    ].join('\n');
    const artifact = markdown(text);
    expect((await artifact.headings()).map((heading) => heading.text)).toEqual([
      'A alt t code & *b* h l',
    ]);
    expect(await artifact.tables()).toEqual([
      { start: 2, end: 5, columns: ['A', 'b', 'c'], rowCount: 1 },
    ]);
    expect(await linkList(text)).toEqual(['0:l:u', '2:c:d', '6:b:c']);
    expect(
      (await artifact.images()).map(({ lineNumber, text: alt, url }) => [lineNumber, alt, url]),
    ).toEqual([
      [0, 'alt t', 'x'],
      [6, 'a b', 'd'],
    ]);
  });

  it('reads a fence info string with escapes and a meta part, and a reference by any spelling of its label', async () => {
    const artifact = markdown(
      '~~~ a\\_b  meta &amp; x\ncode\n~~~\n\n[foo  bar] and [x][FOO BAR]\n\n[Foo Bar]: /url "T"\n',
    );
    expect(await artifact.codeBlocks()).toEqual([
      { start: 0, end: 3, lang: 'a_b', meta: 'meta & x', fenced: true },
    ]);
    expect(await artifact.links()).toEqual([
      { lineNumber: 4, text: 'foo bar', url: '/url', title: 'T' },
      { lineNumber: 4, text: 'x', url: '/url', title: 'T' },
    ]);
  });
});
