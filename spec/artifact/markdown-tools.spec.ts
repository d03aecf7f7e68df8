import {
  DispatchContext,
  defaultArtifactKinds,
  type SpooledArtifact,
  spool,
  ToolCall,
} from 'spoolforge';
import { forgeArtifactTools } from 'spoolforge/engine';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { invokeForged } from '../helpers/forged-tools.js';

const opened: SpooledArtifact[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((artifact) => artifact.close()));
});

async function spooledCall(id: string, text: string, markdown = true) {
  const call = new ToolCall({ id, name: 'fetch_docs', arguments: {} });
  const artifact = await spool(text, { kind: markdown ? 'markdown' : 'text' });
  opened.push(artifact);
  call.results = artifact;
  return call;
}

const invoke = (context: DispatchContext, name: string, input: Record<string, unknown>) =>
  invokeForged(context, name, input);

/** The call a cut result names, parsed back into arguments. */
function continuation(text: string, toolName: string): Record<string, unknown> {
  const match = new RegExp(`Continue with ${toolName} (\\{.*\\})\\]`).exec(text);
  if (!match?.[1]) throw new Error(`no ${toolName} continuation in: ${text.slice(-300)}`);
  return JSON.parse(match[1]) as Record<string, unknown>;
}

const guide = [
  '---', // 1
  'title: Guide',
  '---',
  '# Guide', // 4
  '',
  'Read [the docs][docs] or <https://help.example>.', // 6
  '',
  '## Install', // 8
  '',
  '```sh', // 10
  '# not a heading',
  '```',
  '',
  '![diagram](diagram.png "Flow")', // 14
  '',
  'Usage', // 16
  '-----',
  '',
  '| Flag | Meaning |', // 19
  '| --- | --- |',
  '| -v | verbose |',
  '',
  '## Usage', // 23
  '',
  '[docs]: https://docs.example', // 25
].join('\n');

describe('forging for Markdown outputs', () => {
  it('offers the base tools and artifact_md_* for Markdown outputs only', async () => {
    const context = new DispatchContext({
      turnToolCalls: [
        await spooledCall('call_md', guide),
        await spooledCall('call_log', 'x', false),
      ],
    });
    const forged = forgeArtifactTools(defaultArtifactKinds, context);
    const tools = forged.list();
    expect(tools.map((tool) => tool.name)).toEqual([
      'artifact_head',
      'artifact_tail',
      'artifact_grep',
      'artifact_cat',
      'artifact_byte_length',
      'artifact_line_count',
      'artifact_estimate_tokens',
      'artifact_md_frontmatter',
      'artifact_md_headings',
      'artifact_md_sections',
      'artifact_md_section',
      'artifact_md_code_blocks',
      'artifact_md_links',
      'artifact_md_images',
      'artifact_md_tables',
      'artifact_md_text',
      'artifact_list',
    ]);
    for (const tool of tools.filter((each) => each.name.startsWith('artifact_md_'))) {
      const schema = z.toJSONSchema(tool.inputSchema) as unknown as {
        properties: { callId: { enum: string[] } };
      };
      expect(schema.properties.callId.enum).toEqual(['call_md']);
      expect(tool.ephemeral).toBe(true);
    }
    expect(await invoke(context, 'artifact_list', {})).toMatch(
      /^call_md tool=fetch_docs kind=markdown /,
    );
    // The base tools see both outputs.
    const inputSchema = forged.get('artifact_head')?.inputSchema ?? z.never();
    const base = z.toJSONSchema(inputSchema) as unknown as {
      properties: { callId: { enum: string[] } };
    };
    expect(base.properties.callId.enum).toEqual(['call_md', 'call_log']);
  });

  it('answers each artifact_md_* tool with 1-based lines', async () => {
    const context = new DispatchContext({ turnToolCalls: [await spooledCall('call_1', guide)] });
    const call = (name: string, args: Record<string, unknown> = {}) =>
      invoke(context, name, { callId: 'call_1', ...args });
    expect(await call('artifact_md_frontmatter')).toBe(
      'YAML front matter, lines 1–3:\n2:title: Guide\n',
    );
    expect(await call('artifact_md_headings')).toBe(
      '4:# Guide\n8:## Install\n16:## Usage\n23:## Usage\n4 headings.\n',
    );
    expect(await call('artifact_md_headings', { depth: 1 })).toBe('4:# Guide\n1 heading.\n');
    expect(await call('artifact_md_sections')).toBe(
      '1. lines 4–25 # Guide\n2. lines 8–15 ## Install\n3. lines 16–22 ## Usage\n' +
        '4. lines 23–25 ## Usage\n4 sections.\n',
    );
    expect(await call('artifact_md_section', { heading: 'install' })).toBe(
      'Section 2 "## Install", lines 8–15:\n8:## Install\n9:\n10:```sh\n11:# not a heading\n' +
        '12:```\n13:\n14:![diagram](diagram.png "Flow")\n15:\n',
    );
    expect(await call('artifact_md_section', { index: 4, heading: null })).toBe(
      'Section 4 "## Usage", lines 23–25:\n23:## Usage\n24:\n25:[docs]: https://docs.example\n',
    );
    expect(await call('artifact_md_code_blocks')).toBe('lines 10–12: ```sh\n1 code block.\n');
    expect(await call('artifact_md_code_blocks', { lang: 'rust' })).toBe(
      'No code blocks with lang "rust". Languages present: sh.',
    );
    expect(await call('artifact_md_links')).toBe(
      '6:[the docs](https://docs.example)\n6:[https://help.example](https://help.example)\n2 links.\n',
    );
    expect(await call('artifact_md_images')).toBe('14:![diagram](diagram.png "Flow")\n1 image.\n');
    expect(await call('artifact_md_tables')).toBe(
      'lines 19–21: 2 columns (Flag | Meaning), 1 row\n1 table.\n',
    );
    expect(await call('artifact_md_text', { startLine: 4, endLine: 8 })).toBe(
      'plain text of lines 4–8 of 25:\n4:Guide\n6:Read the docs or https://help.example.\n8:Install\n',
    );
    expect(await call('artifact_md_text', { startLine: 1, endLine: 3 })).toBe(
      'No text in lines 1–3.',
    );
  });

  it('says so in words when there is nothing to list', async () => {
    const context = new DispatchContext({
      turnToolCalls: [await spooledCall('call_1', 'plain\n')],
    });
    const call = (name: string) => invoke(context, name, { callId: 'call_1' });
    expect(await call('artifact_md_frontmatter')).toBe('No front matter.');
    expect(await call('artifact_md_headings')).toBe('No headings.');
    expect(await call('artifact_md_sections')).toBe('No sections: the document has no headings.');
    expect(await call('artifact_md_code_blocks')).toBe('No code blocks.');
    expect(await call('artifact_md_links')).toBe('No links.');
    expect(await call('artifact_md_images')).toBe('No images.');
    expect(await call('artifact_md_tables')).toBe('No tables.');
  });

  it('refuses bad arguments with what exists', async () => {
    const context = new DispatchContext({ turnToolCalls: [await spooledCall('call_1', guide)] });
    const call = (name: string, args: Record<string, unknown>) =>
      invoke(context, name, { callId: 'call_1', ...args });
    await expect(call('artifact_md_section', { heading: 'Uninstall' })).rejects.toMatchObject({
      code: 'E_INVALID_TOOL_ARGS',
      message:
        'No section is headed "Uninstall". Headings: 1. # Guide (line 4); 2. ## Install (line 8); ' +
        '3. ## Usage (line 16); 4. ## Usage (line 23).',
    });
    await expect(call('artifact_md_section', { heading: 'usage' })).rejects.toMatchObject({
      code: 'E_INVALID_TOOL_ARGS',
      message:
        '2 sections are headed "usage": 3. ## Usage (line 16); 4. ## Usage (line 23). Pass index instead.',
    });
    await expect(call('artifact_md_section', { index: 5 })).rejects.toMatchObject({
      code: 'E_INVALID_TOOL_ARGS',
      message: 'No section 5: there are 4 (1–4); see artifact_md_sections.',
    });
    await expect(call('artifact_md_section', {})).rejects.toMatchObject({
      code: 'E_INVALID_TOOL_ARGS',
    });
    await expect(call('artifact_md_text', { startLine: 9, endLine: 3 })).rejects.toMatchObject({
      code: 'E_INVALID_TOOL_ARGS',
      message: 'endLine (3) is before startLine (9)',
    });
  });

  it('cuts long results and names the call that continues each', async () => {
    const headings = Array.from({ length: 6_000 }, (_, index) => `## Heading ${index + 1}\n`);
    const manyLinks = Array.from({ length: 3_000 }, (_, index) => `[l${index}](u${index})`).join(
      ' ',
    );
    const text = `${headings.join('')}\n${manyLinks}\n`;
    const context = new DispatchContext({ turnToolCalls: [await spooledCall('call_9', text)] });
    const call = (name: string, args: Record<string, unknown>) =>
      invoke(context, name, { callId: 'call_9', ...args });

    const first = await call('artifact_md_headings', { depth: 2 });
    expect(Buffer.byteLength(first)).toBeLessThanOrEqual(50 * 1024);
    const next = continuation(first, 'artifact_md_headings');
    const lastShown = Number(/\n(\d+):[^\n]*\n\[cut/.exec(first)?.[1]);
    expect(next).toEqual({ callId: 'call_9', depth: 2, startLine: lastShown + 1 });
    expect(
      (await call('artifact_md_headings', next)).startsWith(`${lastShown + 1}:## Heading`),
    ).toBe(true);

    // 3,000 links on one line: the continuation skips those already shown on it.
    const links = await call('artifact_md_links', {});
    const linksNext = continuation(links, 'artifact_md_links');
    const shown = links.match(/^6002:\[/gm)?.length ?? 0;
    expect(linksNext).toEqual({ callId: 'call_9', startLine: 6002, skip: shown });
    expect(
      (await call('artifact_md_links', linksNext)).startsWith(`6002:[l${shown}](u${shown})`),
    ).toBe(true);

    const section = await call('artifact_md_section', { heading: 'Heading 6000' });
    expect(section).toBe(
      'Section 6000 "## Heading 6000", lines 6000–6002:\n6000:## Heading 6000\n6001:\n6002:' +
        manyLinks.slice(0, 2_000) +
        `… [line cut: 2000 of ${manyLinks.length} chars]\n`,
    );

    const plain = await call('artifact_md_text', {});
    const textNext = continuation(plain, 'artifact_md_text');
    const lastText = Number(/\n(\d+):[^\n]*\n\[cut/.exec(plain)?.[1]);
    expect(textNext).toEqual({ callId: 'call_9', startLine: lastText + 1 });
    expect((await call('artifact_md_text', textNext)).split('\n')[1]).toBe(
      `${lastText + 1}:Heading ${lastText + 1}`,
    );
  });

  it('cuts a listed entry that is too long, like any shown line', async () => {
    const columns = Array.from({ length: 500 }, (_, index) => `column ${index}`);
    const table = `| ${columns.join(' | ')} |\n|${' --- |'.repeat(500)}\n`;
    const context = new DispatchContext({ turnToolCalls: [await spooledCall('call_4', table)] });
    const text = await invoke(context, 'artifact_md_tables', { callId: 'call_4' });
    expect(text).toMatch(
      /^lines 1–2: 500 columns \(column 0 \| column 1 \| .*… \[line cut: 2000 of \d+ chars\]\n1 table\.\n$/,
    );
  });

  it('cuts a listed entry between characters, never inside a surrogate pair', async () => {
    // Two headings of one parity each: whichever way the prefix falls, one cut lands mid-pair.
    const text = `# a${'😀'.repeat(1_500)}\n\n# ab${'😀'.repeat(1_500)}\n`;
    const context = new DispatchContext({ turnToolCalls: [await spooledCall('call_5', text)] });
    const listed = await invoke(context, 'artifact_md_sections', { callId: 'call_5' });
    const lines = listed.split('\n').slice(0, 2);
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      expect(line).toMatch(/😀… \[line cut: \d+ of \d+ chars\]$/);
      // A lone surrogate would reach the model as U+FFFD once the text is sent as UTF-8.
      expect(Buffer.from(line).toString()).toBe(line);
    }
  });

  it('cuts a long section with the artifact_cat call that continues it', async () => {
    const body = Array.from({ length: 3_000 }, (_, index) => `line ${index} ${'x'.repeat(40)}`);
    const context = new DispatchContext({
      turnToolCalls: [await spooledCall('call_3', `# Big\n${body.join('\n')}\n# Next\n`)],
    });
    const text = await invoke(context, 'artifact_md_section', { callId: 'call_3', index: 1 });
    const next = continuation(text, 'artifact_cat');
    const lastShown = Number(/\n(\d+):[^\n]*\n\[cut/.exec(text)?.[1]);
    expect(next).toEqual({ callId: 'call_3', start: lastShown + 1, end: 3_001 });
    const rest = await invoke(context, 'artifact_cat', next);
    expect(rest.split('\n')[1]).toBe(`${lastShown + 1}:line ${lastShown - 1} ${'x'.repeat(40)}`);
  });
});
