import { describe, expect, it } from 'vitest';
import { serveFiles, startServer, urlOf } from '../helpers/http-servers.js';
import { runCli } from '../helpers/run-cli.js';
import { tempFile } from '../helpers/temp-files.js';

const document = [
  '---',
  'title: "# not a heading"',
  '---',
  '# Title',
  '',
  'Intro with `code`.',
  '',
  '## Install',
  '',
  '```sh',
  'npm install spoolforge',
  '```',
  '',
  'Setext *heading*',
  '----------------',
  '',
  '    indented code',
  '      more',
  '',
  '- item',
  '',
  '  ~~~~js',
  '  const a = 1;',
  '  ~~~',
  '  ~~~~',
  '',
  '### Déjà vu',
  '> ```',
  '> quoted',
  '> ```',
  '',
  '## Install',
  '```js',
  'unclosed();',
].join('\n');

const expected = {
  headings: '4:# Title\n8:## Install\n14:## Setext heading\n27:### Déjà vu\n32:## Install\n',
  headingsDepth2: '4:# Title\n8:## Install\n14:## Setext heading\n32:## Install\n',
  sections:
    '4-34:# Title\n8-13:## Install\n14-31:## Setext heading\n27-31:### Déjà vu\n32-34:## Install\n',
  code: 'npm install spoolforge\nindented code\n  more\nconst a = 1;\n~~~\n> quoted\nunclosed();\n',
  codeJs: 'const a = 1;\n~~~\nunclosed();\n',
};

async function md(args: string[], content = document) {
  const file = await tempFile(content, 'doc.md');
  const result = await runCli(['md', ...args, file]);
  return { status: result.status, stdout: result.stdout.toString(), stderr: result.stderr };
}

describe('spoolforge md', () => {
  it('lists headings as LINE:## Title, setext ones as ATX, front matter skipped', async () => {
    expect(await md(['headings'])).toEqual({ status: 0, stdout: expected.headings, stderr: '' });
    expect((await md(['headings', '--depth', '2'])).stdout).toBe(expected.headingsDepth2);
  });

  it('lists sections as START-END:## Title, inclusive 1-based ranges', async () => {
    expect(await md(['sections'])).toEqual({ status: 0, stdout: expected.sections, stderr: '' });
    expect((await md(['sections', '--depth=1'])).stdout).toBe('4-34:# Title\n');
  });

  it('prints a section as written, by heading text or by --index', async () => {
    expect((await md(['section', 'déjà VU'])).stdout).toBe(
      '### Déjà vu\n> ```\n> quoted\n> ```\n\n',
    );
    expect((await md(['section', '--index', '4'])).stdout).toBe('## Install\n```js\nunclosed();\n');
  });

  it('fails with the candidates when a name matches several sections or none', async () => {
    const several = await md(['section', 'Install']);
    expect(several.status).toBe(2);
    expect(several.stderr).toBe(
      'spoolforge: 2 sections are headed "Install"; pick one by index: 1: Install; 4: Install (md section --index N)\n',
    );
    const none = await md(['section', 'Usage']);
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/^spoolforge: No section is headed "Usage"; headings: 0: Title;/);
  });

  it('prints code blocks without fences, of one language when asked', async () => {
    expect(await md(['code'])).toEqual({ status: 0, stdout: expected.code, stderr: '' });
    expect((await md(['code', 'JS'])).stdout).toBe(expected.codeJs);
    expect(await md(['code', 'rust'])).toEqual({ status: 1, stdout: '', stderr: '' });
  });

  it('answers a CRLF document as its LF twin, keeping the \\r of the lines it prints', async () => {
    const crlf = document.replaceAll('\n', '\r\n');
    expect((await md(['headings'], crlf)).stdout).toBe(expected.headings);
    expect((await md(['sections'], crlf)).stdout).toBe(expected.sections);
    expect((await md(['code', 'sh'], crlf)).stdout).toBe('npm install spoolforge\r\n');
  });

  it('exits 1 with no output on an empty document or one without headings', async () => {
    for (const content of ['', 'just text\n']) {
      for (const query of ['headings', 'sections', 'code']) {
        expect(await md([query], content)).toEqual({ status: 1, stdout: '', stderr: '' });
      }
    }
  });

  it('reads standard input and refuses an unknown query with exit 2', async () => {
    const piped = await runCli(['md', 'headings', '-'], Buffer.from('# A\n\nB\n=\n'));
    expect(piped.stdout.toString()).toBe('1:# A\n3:# B\n');
    for (const args of [
      ['code', '--depth', '2'],
      ['headings', '--index', '1'],
    ]) {
      const misplaced = await runCli(['md', ...args, '-'], Buffer.from('# A\n'));
      expect([misplaced.status, misplaced.stderr]).toEqual([
        2,
        `spoolforge: ${args[1]} is for md ${args[1] === '--depth' ? 'headings and md sections' : 'section'}\n`,
      ]);
    }
    const unknown = await runCli(['md', 'links', '-'], Buffer.from(''));
    expect([unknown.status, unknown.stderr]).toEqual([
      2,
      "spoolforge: unknown md query 'links' (headings, sections, section or code)\n",
    ]);
  });

  it('reads an http(s) SOURCE', async () => {
    const file = await tempFile(document, 'doc.md');
    const server = await startServer(serveFiles(file));
    const result = await runCli(['md', 'sections', urlOf(server, file, '?token=secret')]);
    expect([result.status, result.stdout.toString(), result.stderr]).toEqual([
      0,
      expected.sections,
      '',
    ]);
  });
});
