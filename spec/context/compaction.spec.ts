import {
  type ConversationMessage,
  compact,
  pairToolCalls,
  parseSummaryReply,
  SpoolforgeError,
  type Summariser,
  shouldCompact,
  summaryMessage,
  summaryRequest,
} from 'spoolforge';
import { describe, expect, it } from 'vitest';

const call = (id: string, name = 'run_build') => ({ id, name, arguments: '{"target":"all"}' });
const result = (id: string, content = `output of ${id}`): ConversationMessage => ({
  role: 'tool',
  toolCallId: id,
  toolName: 'run_build',
  content,
});
const user = (content: string): ConversationMessage => ({ role: 'user', content });
const assistant = (content: string, ...ids: string[]): ConversationMessage =>
  ids.length === 0
    ? { role: 'assistant', content }
    : { role: 'assistant', content, toolCalls: ids.map((id) => call(id)) };

/** Three turns: a tool call in each of the first two, a trailing call waiting for its result. */
const history: ConversationMessage[] = [
  user('Why did build 4812 fail?'),
  assistant('', 'call_1'),
  result('call_1'),
  assistant('The linker failed.'),
  user('Fix it.'),
  assistant('Patching.', 'call_2'),
  result('call_2'),
  assistant('Patched src/spool.c.'),
  user('Run the tests.'),
  assistant('Running them.', 'call_3'),
];

const reply =
  '<retain>\nbuild 4812\nsrc/spool.c\n</retain>\n<summary>\nFixed the linker.\n</summary>';

/** A summariser that records what it was asked and answers `text`. */
function recording(text = reply) {
  const seen: ConversationMessage[][] = [];
  const summarise: Summariser = async (messages) => {
    seen.push(messages);
    return text;
  };
  return { seen, summarise };
}

describe('summaryRequest', () => {
  it('keeps the trailing assistant text but drops its dangling tool call, then asks', () => {
    const request = summaryRequest(history);
    expect(request.slice(0, -2)).toEqual(history.slice(0, -1));
    expect(request.at(-2)).toEqual({ role: 'assistant', content: 'Running them.' });
    const instruction = request.at(-1);
    expect(instruction?.role).toBe('user');
    expect(instruction?.content).toContain('<retain>');
    expect(instruction?.content).toContain('<summary>');
    expect(instruction?.content).toMatch(/ids, file paths, URLs.*artifact references/s);
  });

  it('marks each stored tool output with its ref, once, so the summary can retain it', () => {
    const stored = { ...result('call_1'), ref: 'q3Vx0cTQ9m1Fh2kYd8a7Lw' } as ConversationMessage;
    const request = summaryRequest([user('Build it'), assistant('', 'call_1'), stored]);
    expect(request[2]).toEqual({
      ...stored,
      content: 'output of call_1\n[stored output: ref=q3Vx0cTQ9m1Fh2kYd8a7Lw]',
    });
    expect(summaryRequest(request.slice(0, -1))[2]).toEqual(request[2]);
  });

  it('drops a trailing assistant message that is only a tool call', () => {
    const request = summaryRequest([user('Build it'), assistant('', 'call_1', 'call_2')]);
    expect(request.slice(0, -1)).toEqual([user('Build it')]);
  });

  it('appends summary and retain directives as bullets', () => {
    const request = summaryRequest(history, {
      summaryDirectives: ['Name every failing test.', 'Keep it under 200 words.'],
      retainDirectives: ['The deployment id.'],
    });
    expect(request.at(-1)?.content).toMatch(
      /In the summary, also:\n- Name every failing test\.\n- Keep it under 200 words\.\n\nAlso retain:\n- The deployment id\.$/,
    );
    expect(summaryRequest(history).at(-1)?.content).not.toContain('- ');
  });
});

describe('pairToolCalls', () => {
  it('leaves a paired history as it is', () => {
    expect(pairToolCalls(history.slice(0, -1))).toEqual(history.slice(0, -1));
  });

  it('keeps only the answered calls of a partly answered message', () => {
    const paired = pairToolCalls([user('go'), assistant('', 'call_1', 'call_2'), result('call_2')]);
    expect(paired).toEqual([
      user('go'),
      { role: 'assistant', content: '', toolCalls: [call('call_2')] },
      result('call_2'),
    ]);
  });

  it('turns results without their call into quoted user messages, and drops empty ones', () => {
    const orphan: ConversationMessage = {
      role: 'tool',
      toolCallId: 'call_9',
      toolName: 'run_build',
      content: 'output of call_9',
      ref: 'a1b2',
    };
    const paired = pairToolCalls([
      user('go'),
      orphan,
      result('call_8', ''),
      assistant('', 'call_1'),
      result('call_1'),
      result('call_1', 'a second answer to the same call'),
      user('next'),
      assistant('late'),
      result('call_1', 'not directly after its call'),
    ]);
    expect(paired).toEqual([
      user('go'),
      user('[Result of tool run_build (call call_9, ref=a1b2)]\noutput of call_9'),
      assistant('', 'call_1'),
      result('call_1'),
      user('[Result of tool run_build (call call_1)]\na second answer to the same call'),
      user('next'),
      assistant('late'),
      user('[Result of tool run_build (call call_1)]\nnot directly after its call'),
    ]);
  });
});

describe('parseSummaryReply', () => {
  it('extracts and trims both sections', () => {
    expect(parseSummaryReply(`Sure.\n${reply}\nDone.`)).toEqual({
      retain: 'build 4812\nsrc/spool.c',
      summary: 'Fixed the linker.',
    });
  });

  it('reads a missing retain as empty', () => {
    expect(parseSummaryReply('<summary>All good.</summary>')).toEqual({
      retain: '',
      summary: 'All good.',
    });
  });

  it.each([
    ['no summary', 'I cannot help with that.'],
    ['an unclosed summary (cut off)', '<retain>x</retain><summary>The linker fa'],
  ])('fails with E_COMPACTION_FAILED on %s', (_, text) => {
    try {
      parseSummaryReply(text);
      expect.unreachable();
    } catch (error) {
      expect(SpoolforgeError.isInstance(error) && error.code).toBe('E_COMPACTION_FAILED');
      expect((error as Error).message).toContain('<summary>');
      expect((error as Error).message).toContain(`Reply began: ${JSON.stringify(text)}`);
    }
  });
});

describe('summaryMessage', () => {
  it('is a user message carrying both sections, without an empty retain', () => {
    const message = summaryMessage({ retain: 'build 4812', summary: 'Fixed the linker.' });
    expect(message.role).toBe('user');
    expect(message.content).toMatch(/^Summary of the conversation so far/);
    expect(parseSummaryReply(message.content)).toEqual({
      retain: 'build 4812',
      summary: 'Fixed the linker.',
    });
    expect(summaryMessage({ retain: '', summary: 'x' }).content).not.toContain('<retain>');
  });
});

describe('compact', () => {
  it('summarises the formatted history and keeps the last turn by default', async () => {
    const { seen, summarise } = recording();
    const compacted = await compact(history, { summarise, retainDirectives: ['Test names.'] });
    expect(seen).toEqual([summaryRequest(history, { retainDirectives: ['Test names.'] })]);
    expect(compacted).toEqual({
      retain: 'build 4812\nsrc/spool.c',
      summary: 'Fixed the linker.',
      keptFrom: 8,
      history: [
        summaryMessage({ retain: 'build 4812\nsrc/spool.c', summary: 'Fixed the linker.' }),
        ...history.slice(8),
      ],
    });
    // The trailing call is kept as it is: its result will follow it.
    expect(compacted.history.at(-1)).toEqual(history.at(-1));
  });

  it.each([
    [0, history.length],
    [1, 8],
    [2, 4],
    [3, 0],
    [7, 0],
  ])('retainLastTurns %i keeps from index %i', async (retainLastTurns, keptFrom) => {
    const compacted = await compact(history, { summarise: recording().summarise, retainLastTurns });
    expect(compacted.keptFrom).toBe(keptFrom);
    expect(compacted.history.slice(1)).toEqual(history.slice(keptFrom));
  });

  it('keeps everything after the summary when there is no user message', async () => {
    const replies = [assistant('hello')];
    const compacted = await compact(replies, { summarise: recording().summarise });
    expect(compacted.keptFrom).toBe(0);
    expect(compacted.history.slice(1)).toEqual(replies);
  });

  it('rejects a bad retainLastTurns before calling the summariser', async () => {
    const { seen, summarise } = recording();
    for (const retainLastTurns of [-1, 1.5, Number.NaN]) {
      await expect(compact(history, { summarise, retainLastTurns })).rejects.toMatchObject({
        code: 'E_INVALID_ARGUMENT',
      });
    }
    expect(seen).toEqual([]);
  });

  it('fails with E_COMPACTION_FAILED when the reply has no summary', async () => {
    await expect(
      compact(history, { summarise: recording('Sorry, no.').summarise }),
    ).rejects.toMatchObject({ code: 'E_COMPACTION_FAILED' });
  });

  it.each([
    ['an empty summary', '<retain>build 4812</retain><summary>  \n </summary>'],
    ['a reply that is not a string', { text: 'the SDK object, not its text' }],
    ['no reply at all', undefined],
  ])('fails with E_COMPACTION_FAILED on %s', async (_, reply) => {
    const summarise = (async () => reply) as unknown as Summariser;
    await expect(compact(history, { summarise })).rejects.toMatchObject({
      code: 'E_COMPACTION_FAILED',
    });
  });

  it('passes the signal and ends with E_ABORTED when it fires, even if the summariser hangs', async () => {
    const controller = new AbortController();
    let received: AbortSignal | undefined;
    const hanging: Summariser = (_, { signal }) => {
      received = signal;
      return new Promise(() => undefined);
    };
    const pending = compact(history, { summarise: hanging, signal: controller.signal });
    controller.abort(new Error('user cancelled'));
    await expect(pending).rejects.toMatchObject({ code: 'E_ABORTED' });
    expect(received).toBe(controller.signal);
  });

  it('turns a summariser error caused by the abort into E_ABORTED, and an aborted start too', async () => {
    const controller = new AbortController();
    const sdkLike: Summariser = (_, { signal }) =>
      new Promise((_, reject) =>
        signal?.addEventListener('abort', () => reject(new Error('Request was aborted.'))),
      );
    const pending = compact(history, { summarise: sdkLike, signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'E_ABORTED' });
    const { seen, summarise } = recording();
    await expect(compact(history, { summarise, signal: controller.signal })).rejects.toMatchObject({
      code: 'E_ABORTED',
    });
    expect(seen).toEqual([]);
  });
});

describe('shouldCompact', () => {
  const limits = { contextLimit: 100_000 };

  it('counts input, cache creation, cache read and output against 80% of the limit', () => {
    const usage = {
      inputTokens: 50_000,
      cacheCreationInputTokens: 10_000,
      cacheReadInputTokens: 15_000,
      outputTokens: 4_999,
    };
    expect(shouldCompact(usage, limits)).toBe(false);
    expect(shouldCompact({ ...usage, outputTokens: 5_000 }, limits)).toBe(true);
    expect(shouldCompact({}, limits)).toBe(false);
  });

  it('takes a threshold ratio', () => {
    expect(shouldCompact({ inputTokens: 50_000 }, { ...limits, thresholdRatio: 0.5 })).toBe(true);
    expect(shouldCompact({ inputTokens: 49_999 }, { ...limits, thresholdRatio: 0.5 })).toBe(false);
    expect(shouldCompact({ inputTokens: 100_000 }, { ...limits, thresholdRatio: 1 })).toBe(true);
  });

  it('is off when disabled or not automatic, even without a limit', () => {
    const usage = { inputTokens: 1_000_000 };
    expect(shouldCompact(usage, { ...limits, enabled: false })).toBe(false);
    expect(shouldCompact(usage, { ...limits, auto: false })).toBe(false);
    expect(shouldCompact(usage, { enabled: false })).toBe(false);
    expect(shouldCompact(usage, { auto: false })).toBe(false);
    expect(shouldCompact(usage, { ...limits, enabled: true, auto: true })).toBe(true);
  });

  it.each([
    ['missing', {}],
    ['zero', { contextLimit: 0 }],
    ['negative', { contextLimit: -1 }],
    ['NaN', { contextLimit: Number.NaN }],
    ['infinite', { contextLimit: Number.POSITIVE_INFINITY }],
  ])('refuses to guess an unknown (%s) context limit', (_, given) => {
    expect(() => shouldCompact({ inputTokens: 1 }, { ...given, enabled: true })).toThrow(
      expect.objectContaining({
        code: 'E_INVALID_ARGUMENT',
        message: expect.stringMatching(/contextLimit/),
      }),
    );
  });

  it.each([0, -0.5, 1.5, Number.NaN])('rejects thresholdRatio %s', (thresholdRatio) => {
    expect(() => shouldCompact({}, { ...limits, thresholdRatio })).toThrow(
      expect.objectContaining({ code: 'E_INVALID_ARGUMENT' }),
    );
  });
});
