import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import {
  baseToolMethods,
  DispatchContext,
  defaultArtifactKinds,
  defineTool,
  type SpooledArtifact,
  spool,
  ToolCall,
  type ToolCallOutcome,
  ToolSession,
} from 'spoolforge';
import { forgeArtifactTools } from 'spoolforge/engine';
import { toChatCompletionsTools } from 'spoolforge/openai';
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

/** One `artifact_md` operation on `callId`, through the forged tool. */
const md = (
  context: DispatchContext,
  callId: string,
  op: string,
  args: Record<string, unknown> = {},
) => invoke(context, 'artifact_md', { callId, op, ...args });

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
  it('offers the base tools and one artifact_md for Markdown outputs only', async () => {
    const context = new DispatchContext({
      turnToolCalls: [
        await spooledCall('call_md', guide),
        await spooledCall('call_log', 'x', false),
      ],
    });
    const forged = forgeArtifactTools(defaultArtifactKinds, context);
    const tools = forged.list();
    expect(tools.map((tool) => tool.name)).toEqual([
      ...baseToolMethods.map((method) => method.name),
      'artifact_md',
      'artifact_list',
    ]);
    const mdTool = forged.get('artifact_md');
    const schema = z.toJSONSchema(mdTool?.inputSchema ?? z.never()) as unknown as {
      properties: { callId: { enum: string[] }; op: { enum: string[] } };
    };
    expect(schema.properties.callId.enum).toEqual(['call_md']);
    expect(schema.properties.op.enum).toEqual([
      'headings',
      'sections',
      'section',
      'code',
      'links',
      'images',
      'tables',
      'frontmatter',
      'text',
    ]);
    expect(Object.keys(schema.properties)).toEqual([
      'callId',
      'op',
      'heading',
      'index',
      'depth',
      'lang',
      'startLine',
      'endLine',
    ]);
    expect(mdTool?.ephemeral).toBe(true);
    expect(await invoke(context, 'artifact_list', {})).toMatch(
      /^call_md tool=fetch_docs kind=markdown /,
    );
    // The base tools see both outputs.
    const base = z.toJSONSchema(
      forged.get('artifact_grep')?.inputSchema ?? z.never(),
    ) as unknown as {
      properties: { callId: { enum: string[] } };
    };
    expect(base.properties.callId.enum).toEqual(['call_md', 'call_log']);
  });

  it('defines artifact_md in at most 250 o200k tokens besides its callId', async () => {
    const context = new DispatchContext({ turnToolCalls: [await spooledCall('call_1', guide)] });
    const forged = forgeArtifactTools(defaultArtifactKinds, context);
    const [sent] = toChatCompletionsTools(
      forged.list().filter((tool) => tool.name === 'artifact_md'),
    );
    if (!sent) throw new Error('artifact_md was not forged');
    const parameters = sent.function.parameters as {
      properties: Record<string, unknown>;
      required: string[];
    };
    const { callId, ...properties } = parameters.properties;
    expect(callId).toBeDefined();
    const required = parameters.required.filter((name) => name !== 'callId');
    const bare = {
      ...sent,
      function: { ...sent.function, parameters: { ...parameters, properties, required } },
    };
    expect(countTokens(JSON.stringify(bare))).toBeLessThanOrEqual(250);
  });

  it('answers each artifact_md op with 1-based lines', async () => {
    const context = new DispatchContext({ turnToolCalls: [await spooledCall('call_1', guide)] });
    const call = (op: string, args: Record<string, unknown> = {}) =>
      md(context, 'call_1', op, args);
    expect(await call('frontmatter')).toBe('YAML front matter, lines 1–3:\n2:title: Guide\n');
    expect(await call('headings')).toBe(
      '4:# Guide\n8:## Install\n16:## Usage\n23:## Usage\n4 headings.\n',
    );
    expect(await call('headings', { depth: 1 })).toBe('4:# Guide\n1 heading.\n');
    expect(await call('headings', { startLine: 9 })).toBe(
      '16:## Usage\n23:## Usage\n2 headings.\n',
    );
    expect(await call('sections')).toBe(
      '1. lines 4–25 # Guide\n2. lines 8–15 ## Install\n3. lines 16–22 ## Usage\n' +
        '4. lines 23–25 ## Usage\n4 sections.\n',
    );
    expect(await call('sections', { depth: 1 })).toBe('1. lines 4–25 # Guide\n1 section.\n');
    expect(await call('section', { heading: 'install' })).toBe(
      'Section 2 "## Install", lines 8–15:\n8:## Install\n9:\n10:```sh\n11:# not a heading\n' +
        '12:```\n13:\n14:![diagram](diagram.png "Flow")\n15:\n',
    );
    // As strict-mode providers send it: every argument present, the unused ones null.
    const nulls = { heading: null, depth: null, lang: null, startLine: null, endLine: null };
    expect(await call('section', { ...nulls, index: 4 })).toBe(
      'Section 4 "## Usage", lines 23–25:\n23:## Usage\n24:\n25:[docs]: https://docs.example\n',
    );
    expect(await call('code')).toBe('lines 10–12: ```sh\n1 code block.\n');
    expect(await call('code', { lang: 'SH' })).toBe('lines 10–12: ```sh\n1 code block.\n');
    expect(await call('code', { lang: 'rust' })).toBe(
      'No code blocks with lang "rust". Languages present: sh.',
    );
    expect(await call('links')).toBe(
      '6:[the docs](https://docs.example)\n6:[https://help.example](https://help.example)\n2 links.\n',
    );
    expect(await call('links', { startLine: 6, index: 2 })).toBe(
      '6:[https://help.example](https://help.example)\n1 link.\n',
    );
    expect(await call('images')).toBe('14:![diagram](diagram.png "Flow")\n1 image.\n');
    expect(await call('tables')).toBe('lines 19–21: 2 columns (Flag | Meaning), 1 row\n1 table.\n');
    expect(await call('tables', { startLine: 20 })).toBe('No tables.');
    expect(await call('text', { startLine: 4, endLine: 8 })).toBe(
      'plain text of lines 4–8 of 25:\n4:Guide\n6:Read the docs or https://help.example.\n8:Install\n',
    );
    expect(await call('text', { startLine: 1, endLine: 3 })).toBe('No text in lines 1–3.');
    expect(await call('text', { startLine: 30 })).toBe(
      'No lines to show: the document has 25 lines.',
    );
  });

  it('says so in words when there is nothing to list', async () => {
    const context = new DispatchContext({
      turnToolCalls: [await spooledCall('call_1', 'plain\n')],
    });
    const call = (op: string) => md(context, 'call_1', op);
    expect(await call('frontmatter')).toBe('No front matter.');
    expect(await call('headings')).toBe('No headings.');
    expect(await call('sections')).toBe('No sections: the document has no headings.');
    expect(await call('code')).toBe('No code blocks.');
    expect(await call('links')).toBe('No links.');
    expect(await call('images')).toBe('No images.');
    expect(await call('tables')).toBe('No tables.');
  });

  it('refuses bad arguments with what exists', async () => {
    const context = new DispatchContext({ turnToolCalls: [await spooledCall('call_1', guide)] });
    const call = (args: Record<string, unknown>) => md(context, 'call_1', 'section', args);
    await expect(call({ heading: 'Uninstall' })).rejects.toMatchObject({
      code: 'E_INVALID_TOOL_ARGS',
      message:
        'No section is headed "Uninstall". Headings: 1. # Guide (line 4); 2. ## Install (line 8); ' +
        '3. ## Usage (line 16); 4. ## Usage (line 23).',
    });
    await expect(call({ heading: 'usage' })).rejects.toMatchObject({
      code: 'E_INVALID_TOOL_ARGS',
      message:
        '2 sections are headed "usage": 3. ## Usage (line 16); 4. ## Usage (line 23). Pass index instead.',
    });
    await expect(call({ index: 5 })).rejects.toMatchObject({
      code: 'E_INVALID_TOOL_ARGS',
      message:
        'No section 5: there are 4 (1–4); see artifact_md {"callId":"call_1","op":"sections"}.',
    });
    await expect(call({})).rejects.toMatchObject({
      code: 'E_INVALID_TOOL_ARGS',
      message: 'Give either heading or index (one of them)',
    });
    await expect(call({ heading: 'Install', index: 2 })).rejects.toMatchObject({
      code: 'E_INVALID_TOOL_ARGS',
    });
    await expect(md(context, 'call_1', 'text', { startLine: 9, endLine: 3 })).rejects.toMatchObject(
      {
        code: 'E_INVALID_TOOL_ARGS',
        message: 'endLine (3) is before startLine (9)',
      },
    );
  });

  it('names the arguments an op reads when given one it does not', async () => {
    const context = new DispatchContext({ turnToolCalls: [await spooledCall('call_1', guide)] });
    const refusals: [op: string, args: Record<string, unknown>, message: string][] = [
      ['headings', { lang: 'ts' }, 'op "headings" takes depth, startLine, not lang'],
      ['sections', { heading: 'Install' }, 'op "sections" takes depth, startLine, not heading'],
      [
        'section',
        { depth: 2, startLine: 3 },
        'op "section" takes heading, index, not depth, startLine',
      ],
      ['code', { depth: 1 }, 'op "code" takes lang, startLine, not depth'],
      ['links', { lang: 'ts' }, 'op "links" takes startLine, index, not lang'],
      ['images', { endLine: 4 }, 'op "images" takes startLine, index, not endLine'],
      ['tables', { index: 1 }, 'op "tables" takes startLine, not index'],
      ['frontmatter', { startLine: 1 }, 'op "frontmatter" takes no other argument, not startLine'],
      ['text', { heading: 'Install' }, 'op "text" takes startLine, endLine, not heading'],
    ];
    for (const [op, args, message] of refusals) {
      await expect(md(context, 'call_1', op, args)).rejects.toMatchObject({
        code: 'E_INVALID_TOOL_ARGS',
        message: `artifact_md ${message}`,
      });
    }
  });

  it('answers an unknown op or a stray argument with an error result the model can read', async () => {
    const fetchDocs = defineTool({
      name: 'fetch_docs',
      description: 'The runbook.',
      inputSchema: z.object({}),
      kind: 'markdown',
      handler: () => guide,
    });
    await using session = new ToolSession({ tools: [fetchDocs], inlineThreshold: 0 });
    await session.run([{ id: 'call_1', name: 'fetch_docs', arguments: {} }], session.dispatch());
    const outcomes = await session.run(
      [
        { id: 'q1', name: 'artifact_md', arguments: { callId: 'call_1', op: 'toc' } },
        { id: 'q2', name: 'artifact_md', arguments: { callId: 'call_1', op: 'tables', depth: 2 } },
        {
          id: 'q3',
          name: 'artifact_md',
          arguments: { callId: 'call_1', op: 'headings', depth: 1 },
        },
      ],
      session.dispatch(),
    );
    const textOf = (outcome: ToolCallOutcome | undefined) =>
      (outcome?.content ?? []).map((part) => ('text' in part ? part.text : '')).join('');
    expect(outcomes.map((outcome) => outcome.call.error?.code)).toEqual([
      'E_INVALID_TOOL_ARGS',
      'E_INVALID_TOOL_ARGS',
      undefined,
    ]);
    expect(textOf(outcomes[0])).toContain(
      'op must be one of "headings", "sections", "section", "code", "links", "images", ' +
        '"tables", "frontmatter", "text"',
    );
    expect(textOf(outcomes[1])).toBe(
      'Error (E_INVALID_TOOL_ARGS): artifact_md op "tables" takes startLine, not depth',
    );
    expect(textOf(outcomes[2])).toBe('4:# Guide\n1 heading.\n');
  });

  it('cuts long results and names the artifact_md call that continues each', async () => {
    const headings = Array.from({ length: 6_000 }, (_, index) => `## Heading ${index + 1}\n`);
    const manyLinks = Array.from({ length: 3_000 }, (_, index) => `[l${index}](u${index})`).join(
      ' ',
    );
    const text = `${headings.join('')}\n${manyLinks}\n`;
    const context = new DispatchContext({ turnToolCalls: [await spooledCall('call_9', text)] });
    const call = (op: string, args: Record<string, unknown>) => md(context, 'call_9', op, args);
    const resume = (next: Record<string, unknown>) => invoke(context, 'artifact_md', next);

    const first = await call('headings', { depth: 2 });
    expect(Buffer.byteLength(first)).toBeLessThanOrEqual(50 * 1024);
    expect(first).toContain(
      'Continue with artifact_md {"callId":"call_9","op":"headings","depth":2,',
    );
    const next = continuation(first, 'artifact_md');
    const lastShown = Number(/\n(\d+):[^\n]*\n\[cut/.exec(first)?.[1]);
    expect(next).toEqual({ callId: 'call_9', op: 'headings', depth: 2, startLine: lastShown + 1 });
    expect((await resume(next)).startsWith(`${lastShown + 1}:## Heading`)).toBe(true);

    const listed = await call('sections', {});
    const sectionsNext = continuation(listed, 'artifact_md');
    const lastSection = Number(/\n(\d+)\. lines[^\n]*\n\[cut/.exec(listed)?.[1]);
    expect(sectionsNext).toEqual({ callId: 'call_9', op: 'sections', startLine: lastSection + 1 });
    expect((await resume(sectionsNext)).startsWith(`${lastSection + 1}. lines `)).toBe(true);

    // 3,000 links on one line: the continuation starts past those already shown on it.
    const links = await call('links', {});
    const linksNext = continuation(links, 'artifact_md');
    const shown = links.match(/^6002:\[/gm)?.length ?? 0;
    expect(linksNext).toEqual({ callId: 'call_9', op: 'links', startLine: 6002, index: shown + 1 });
    expect((await resume(linksNext)).startsWith(`6002:[l${shown}](u${shown})`)).toBe(true);
    // Pages of 8 KiB cut the line many times: each continuation counts on from where it began.
    const small = { limits: { maxResultBytes: 8 * 1024 } };
    const seen: string[] = [];
    let input: Record<string, unknown> = { callId: 'call_9', op: 'links' };
    for (let page = 0; page < 100; page++) {
      const text = await invokeForged(context, 'artifact_md', input, small);
      seen.push(...(text.match(/^\d+:\[.*$/gm) ?? []));
      if (!text.includes('Continue with')) break;
      input = continuation(text, 'artifact_md');
    }
    expect(seen).toEqual(manyLinks.split(' ').map((link) => `6002:${link}`));

    const section = await call('section', { heading: 'Heading 6000' });
    expect(section).toBe(
      'Section 6000 "## Heading 6000", lines 6000–6002:\n6000:## Heading 6000\n6001:\n6002:' +
        manyLinks.slice(0, 2_000) +
        `… [line cut: 2000 of ${manyLinks.length} chars]\n`,
    );

    const plain = await call('text', {});
    const textNext = continuation(plain, 'artifact_md');
    const lastText = Number(/\n(\d+):[^\n]*\n\[cut/.exec(plain)?.[1]);
    expect(textNext).toEqual({ callId: 'call_9', op: 'text', startLine: lastText + 1 });
    expect((await resume(textNext)).split('\n')[1]).toBe(`${lastText + 1}:Heading ${lastText + 1}`);
    const bounded = await call('text', { startLine: 1, endLine: 5_000 });
    expect(continuation(bounded, 'artifact_md')).toMatchObject({ op: 'text', endLine: 5_000 });
  });

  it('lists every heading of a long document across its continuations, each once', async () => {
    const headings = Array.from({ length: 6_000 }, (_, index) => `## Heading ${index + 1}\n`);
    const context = new DispatchContext({
      turnToolCalls: [await spooledCall('call_9', headings.join(''))],
    });
    const seen: string[] = [];
    let input: Record<string, unknown> = { callId: 'call_9', op: 'headings' };
    for (let page = 0; page < 10; page++) {
      const text = await invoke(context, 'artifact_md', input);
      seen.push(...(text.match(/^\d+:## .*$/gm) ?? []));
      if (!text.includes('Continue with')) break;
      input = continuation(text, 'artifact_md');
    }
    expect(seen).toHaveLength(6_000);
    expect(new Set(seen).size).toBe(6_000);
  });

  it('cuts a listed entry that is too long, like any shown line', async () => {
    const columns = Array.from({ length: 500 }, (_, index) => `column ${index}`);
    const table = `| ${columns.join(' | ')} |\n|${' --- |'.repeat(500)}\n`;
    const context = new DispatchContext({ turnToolCalls: [await spooledCall('call_4', table)] });
    const text = await md(context, 'call_4', 'tables');
    expect(text).toMatch(
      /^lines 1–2: 500 columns \(column 0 \| column 1 \| .*… \[line cut: 2000 of \d+ chars\]\n1 table\.\n$/,
    );
  });

  it('cuts a listed entry between characters, never inside a surrogate pair', async () => {
    // Two headings of one parity each: whichever way the prefix falls, one cut lands mid-pair.
    const text = `# a${'😀'.repeat(1_500)}\n\n# ab${'😀'.repeat(1_500)}\n`;
    const context = new DispatchContext({ turnToolCalls: [await spooledCall('call_5', text)] });
    const listed = await md(context, 'call_5', 'sections');
    const lines = listed.split('\n').slice(0, 2);
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      expect(line).toMatch(/😀… \[line cut: \d+ of \d+ chars\]$/);
      // A lone surrogate would reach the model as U+FFFD once the text is sent as UTF-8.
      expect(Buffer.from(line).toString()).toBe(line);
    }
  });

  it('cuts a long section or front matter with the artifact_read call that continues it', async () => {
    const body = Array.from({ length: 3_000 }, (_, index) => `line ${index} ${'x'.repeat(40)}`);
    const artifact = await spool(`# Big\n${body.join('\n')}\n# Next\n`, { kind: 'markdown' });
    opened.push(artifact);
    const call = new ToolCall({ id: 'call_3', name: 'fetch_docs', arguments: {} });
    call.results = artifact;
    const context = new DispatchContext({ turnToolCalls: [call] });
    const text = await md(context, 'call_3', 'section', { index: 1 });
    const next = continuation(text, 'artifact_read');
    const lastShown = Number(/\n(\d+):[^\n]*\n\[cut/.exec(text)?.[1]);
    expect(next).toEqual({ callId: 'call_3', start: lastShown + 1, end: 3_001 });
    // artifact_read's START..END are 1-based inclusive: the continuation starts at the next line.
    const [firstRest] = await artifact.cat(Number(next.start) - 1, Number(next.end));
    expect(firstRest?.text).toBe(`line ${lastShown - 1} ${'x'.repeat(40)}`);

    const matter = `---\n${body.join('\n')}\n---\n# After\n`;
    const context2 = new DispatchContext({ turnToolCalls: [await spooledCall('call_6', matter)] });
    const front = await md(context2, 'call_6', 'frontmatter');
    const lastMatter = Number(/\n(\d+):[^\n]*\n\[cut/.exec(front)?.[1]);
    expect(continuation(front, 'artifact_read')).toEqual({
      callId: 'call_6',
      start: lastMatter + 1,
      end: 3_001,
    });
  });
});
