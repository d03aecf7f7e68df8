import type {
  MarkdownCodeBlock,
  MarkdownFrontmatter,
  MarkdownHeading,
  MarkdownLink,
  MarkdownTable,
} from 'spoolforge';

/** What a generated document must yield, known by construction rather than by parsing. */
export interface ExpectedOutline {
  lineCount: number;
  frontmatter: MarkdownFrontmatter | undefined;
  headings: MarkdownHeading[];
  codeBlocks: MarkdownCodeBlock[];
  links: MarkdownLink[];
  images: MarkdownLink[];
  tables: MarkdownTable[];
}

/** Builds a document line by line, recording where each construct lands. */
class DocumentBuilder {
  readonly lines: string[] = [];
  readonly expected: ExpectedOutline = {
    lineCount: 0,
    frontmatter: undefined,
    headings: [],
    codeBlocks: [],
    links: [],
    images: [],
    tables: [],
  };

  get next(): number {
    return this.lines.length;
  }

  add(...lines: string[]): number {
    const start = this.next;
    this.lines.push(...lines);
    return start;
  }

  heading(line: string, depth: number, text: string, style: 'atx' | 'setext' = 'atx'): void {
    this.expected.headings.push({ lineNumber: this.add(line), depth, text, style });
  }

  fence(opening: string, lang: string | undefined, body: string[], closing: string): void {
    const start = this.add(opening, ...body, closing);
    this.expected.codeBlocks.push({ start, end: this.next, lang, meta: undefined, fenced: true });
  }

  table(columns: string[], rows: string[][]): void {
    const start = this.add(
      `| ${columns.join(' | ')} |`,
      `| ${columns.map(() => '---').join(' | ')} |`,
      ...rows.map((row) => `| ${row.join(' | ')} |`),
    );
    this.expected.tables.push({ start, end: this.next, columns, rowCount: rows.length });
  }
}

/**
 * A document of `sectionCount` sections mixing every construct the outline reports, with `#`
 * lines where they are not headings (fenced, indented and HTML blocks, `#hashtag`). Every
 * `longEvery`-th section holds a fenced block, a table and an indented block of `longLines`
 * lines each, so small windows must cut inside them. Reference definitions all come at the end.
 */
export function generateMarkdown(
  sectionCount: number,
  options: { longEvery?: number; longLines?: number } = {},
): { text: string; expected: ExpectedOutline } {
  const { longEvery = 0, longLines = 1_000 } = options;
  const document = new DocumentBuilder();
  const start = document.add('---', 'title: Generated', 'tags: [a, b]', '---');
  document.expected.frontmatter = {
    format: 'yaml',
    start,
    end: document.next,
    text: 'title: Generated\ntags: [a, b]',
  };
  for (let index = 0; index < sectionCount; index++) {
    document.add('');
    document.heading(`## Section ${index}`, 2, `Section ${index}`);
    document.add('');
    const linkLine = document.add(
      `See [the guide][r${index}], [inline *docs*](https://example.com/${index} "Docs ${index}") and <https://auto.example/${index}>.`,
    );
    document.expected.links.push(
      {
        lineNumber: linkLine,
        text: 'the guide',
        url: `https://ref.example/${index}`,
        title: undefined,
      },
      {
        lineNumber: linkLine,
        text: 'inline docs',
        url: `https://example.com/${index}`,
        title: `Docs ${index}`,
      },
      {
        lineNumber: linkLine,
        text: `https://auto.example/${index}`,
        url: `https://auto.example/${index}`,
        title: undefined,
      },
    );
    document.add('');
    document.fence('```sh', 'sh', [`# not a heading ${index}`, '', '# still code'], '```');
    document.add('', '- item one', '');
    document.heading(`  ### Nested ${index}`, 3, `Nested ${index}`);
    document.add('', '  continued item text', '- item two', '');
    document.heading(`> #### Quoted ${index}`, 4, `Quoted ${index}`);
    document.add('> quoted text', '');
    document.table(
      ['Name', 'Value'],
      [
        [`a${index}`, '1'],
        ['b', '2'],
      ],
    );
    document.add('');
    document.heading(`Setext ${index}`, 1, `Setext ${index}`, 'setext');
    document.add('==========', '');
    const indented = document.add(`    # indented code ${index}`);
    document.expected.codeBlocks.push({
      start: indented,
      end: indented + 1,
      lang: undefined,
      meta: undefined,
      fenced: false,
    });
    document.add('');
    const imageLine = document.add(`![alt ${index}](img/${index}.png)`);
    document.expected.images.push({
      lineNumber: imageLine,
      text: `alt ${index}`,
      url: `img/${index}.png`,
      title: undefined,
    });
    document.add('', `#hashtag${index} is not a heading`, '');
    document.fence('~~~~ text', 'text', ['~~~', `# tilde fenced ${index}`], '~~~~');
    document.add('', '<pre>', `# in pre ${index}`, '', '# also in pre', '</pre>');
    if (longEvery > 0 && index % longEvery === longEvery - 1) {
      document.add('');
      const body = Array.from({ length: longLines }, (_, line) =>
        line % 5 === 0 ? '' : `# log ${line}`,
      );
      document.fence('````log', 'log', body, '````');
      document.add('');
      document.table(
        ['Key', 'Count'],
        Array.from({ length: longLines }, (_, row) => [`k${row}`, String(row)]),
      );
      document.add('');
      const indentedStart = document.add(
        ...Array.from({ length: longLines }, (_, line) =>
          line % 5 === 2 ? '' : `    # output ${line}`,
        ),
      );
      document.expected.codeBlocks.push({
        start: indentedStart,
        end: document.next,
        lang: undefined,
        meta: undefined,
        fenced: false,
      });
    }
  }
  document.add('');
  for (let index = 0; index < sectionCount; index++)
    document.add(`[r${index}]: https://ref.example/${index}`);
  document.expected.lineCount = document.next;
  return { text: `${document.lines.join('\n')}\n`, expected: document.expected };
}
