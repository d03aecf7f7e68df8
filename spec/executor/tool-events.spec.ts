import {
  createArtifactHandler,
  createLinkSigner,
  defineTool,
  Media,
  SpooledArtifact,
  streamToolEvents,
  type ToolEvent,
  ToolEventQueue,
  ToolSession,
  withUiParts,
} from 'spoolforge';
import { OpenAIToolSession } from 'spoolforge/openai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readEventStream } from '../helpers/event-stream.js';
import { listen } from '../helpers/http-servers.js';
import { solidPng } from '../helpers/solid-png.js';
import { openStore } from '../store/store-helpers.js';

const logText = Array.from({ length: 40_000 }, (_, index) => `line ${index + 1} é\r\n`).join('');

/** 40,000 numbered CRLF lines, the "é" of the first chunk split across two chunks. */
async function* crlfLog() {
  const bytes = Buffer.from(logText);
  const split = bytes.indexOf(Buffer.from('é')) + 1; // inside the two bytes of é
  yield bytes.subarray(0, split);
  for (let offset = split; offset < bytes.length; offset += 64 * 1024) {
    yield bytes.subarray(offset, offset + 64 * 1024);
    await new Promise((resolve) => setTimeout(resolve, 60));
  }
}

const build = defineTool({
  name: 'run_build',
  description: 'Runs the build.',
  inputSchema: z.object({}),
  handler: (_input, { progress }) => {
    progress?.({ message: 'compiling' });
    let exit: (code: number) => void = () => {};
    const exitCode = new Promise<number>((resolve) => {
      exit = resolve;
    });
    async function* output() {
      yield* crlfLog();
      exit(2);
    }
    return withUiParts(output(), {
      text: '$ make all',
      telemetry: exitCode.then((code) => ({ exitCode: code })),
    });
  },
});

const fail = defineTool({
  name: 'fail',
  description: 'Fails.',
  inputSchema: z.object({}),
  handler: () => {
    throw new Error('disk on fire');
  },
});

const chart = defineTool({
  name: 'chart',
  description: 'Draws a chart.',
  inputSchema: z.object({}),
  handler: () =>
    new Media(solidPng(4, 4, [200, 30, 40]), { mediaType: 'image/png', name: 'c.png' }),
});

const calls = (...names: string[]) =>
  names.map((name, index) => ({ id: `call_${index + 1}`, name, arguments: {} }));

describe('tool events', () => {
  it('a session reports start, progress, bounded partial output and completion with ui parts', async () => {
    const store = await openStore();
    const events: ToolEvent[] = [];
    await using session = new ToolSession({
      tools: [build, fail],
      store,
      maxPartialOutputBytes: 1000,
      onEvent: (event) => events.push(event),
    });
    const [built, failed] = await session.run(calls('run_build', 'fail'), session.dispatch());
    const of = (id: string) => events.filter((event) => event.toolCallId === id);
    const buildEvents = of('call_1');
    expect(buildEvents[0]).toEqual({
      type: 'start',
      toolCallId: 'call_1',
      toolName: 'run_build',
      arguments: {},
    });
    expect(buildEvents[1]).toEqual({
      type: 'progress',
      toolCallId: 'call_1',
      message: 'compiling',
    });
    const output = buildEvents
      .filter((event) => event.type === 'output')
      .map((event) => event.text)
      .join('');
    // The first 1,000 bytes exactly, the é split across chunks decoded whole, CRLF kept.
    const expected = Buffer.from(
      Array.from({ length: 100 }, (_, index) => `line ${index + 1} é\r\n`).join(''),
    )
      .subarray(0, 1000)
      .toString('utf8');
    expect(output).toBe(expected);
    expect(output).toContain('line 1 é\r\n');
    const streamed = buildEvents.filter((event) => event.type === 'progress' && event.bytes);
    expect(streamed.length).toBeGreaterThan(0); // the stream takes over a second
    const complete = buildEvents.at(-1);
    if (complete?.type !== 'complete') throw new Error('no complete event');
    expect(complete.result).toBeInstanceOf(SpooledArtifact);
    expect(complete.ref).toBe(built?.ref);
    const byteLength = await (complete.result as SpooledArtifact).byteLength();
    expect(complete.ui).toEqual({
      text: '$ make all',
      telemetry: { exitCode: 2, byteLength, durationMs: built?.durationMs },
    });
    expect(session.toolCalls[0]?.ui).toEqual(complete.ui);

    const failEvents = of('call_2');
    expect(failEvents.map((event) => event.type)).toEqual(['start', 'complete']);
    expect(failEvents[1]).toMatchObject({
      isError: true,
      error: { code: 'E_TOOL_FAILED', message: 'fail failed: disk on fire' },
      result: 'Error (E_TOOL_FAILED): fail failed: disk on fire',
    });
    expect(failed?.isError).toBe(true);
  });

  it('a listener that throws does not fail the call', async () => {
    await using session = new ToolSession({
      tools: [build],
      onEvent: () => {
        throw new Error('ui down');
      },
    });
    const [outcome] = await session.run(calls('run_build'), session.dispatch());
    expect(outcome?.isError).toBe(false);
  });

  it('reaches the events through an adapter wrapping the session', async () => {
    const events: ToolEvent[] = [];
    await using agent = new OpenAIToolSession({ tools: [fail], onEvent: (e) => events.push(e) });
    const dispatch = agent.chatCompletionsDispatch();
    await dispatch.run([
      { id: 'call_9', type: 'function', function: { name: 'fail', arguments: '{}' } },
    ]);
    expect(events.map((event) => [event.type, event.toolCallId])).toEqual([
      ['start', 'call_9'],
      ['complete', 'call_9'],
    ]);
  });

  it('a queue holds at most maxEvents, losing progress and output before the rest', async () => {
    const queue = new ToolEventQueue({ maxEvents: 10 });
    queue.push({ type: 'start', toolCallId: 'a', toolName: 't' });
    for (let index = 0; index < 100; index++) {
      queue.push({ type: 'progress', toolCallId: 'a', bytes: index });
    }
    queue.push({ type: 'complete', toolCallId: 'a', toolName: 't', result: 'done' });
    queue.close();
    const read: ToolEvent[] = [];
    for await (const event of queue) read.push(event);
    expect(read).toHaveLength(10);
    expect(queue.dropped).toBe(92);
    expect(read[0]?.type).toBe('start');
    expect(read.at(-1)?.type).toBe('complete');
    expect(read.slice(1, -1).map((event) => event.type === 'progress' && event.bytes)).toEqual([
      92, 93, 94, 95, 96, 97, 98, 99,
    ]);
  });
});

describe('streamToolEvents', () => {
  it('streams a session to an EventSource reader with signed artifact links, never big bodies', async () => {
    const store = await openStore();
    const signer = createLinkSigner({ key: 'k'.repeat(32) });
    const artifacts = await listen(createArtifactHandler(store, { signedLinks: { signer } }));
    const queue = new ToolEventQueue();
    await using session = new ToolSession({
      tools: [build, fail, chart],
      store,
      onEvent: queue.push,
    });
    const origin = await listen((_request, response) => {
      void streamToolEvents(response, queue, {
        store,
        baseUrl: `${artifacts}/artifacts`,
        signedLinks: { signer },
        heartbeatMs: 50,
      });
    });
    const reading = readEventStream(`${origin}/events`);
    await session.run(calls('run_build', 'fail', 'chart'), session.dispatch());
    queue.close();
    const { events, contentType, comments } = await reading;
    expect(contentType).toBe('text/event-stream; charset=utf-8');
    expect(comments).toBeGreaterThan(0); // keep-alives while the build streamed
    expect(events.map((event) => event.id)).toEqual(events.map((_, index) => String(index + 1)));
    const parsed = events.map((event) => ({ event: event.event, data: JSON.parse(event.data) }));
    for (const { event, data } of parsed) expect(data.type).toBe(event);
    const totalBytes = events.reduce((sum, event) => sum + event.data.length, 0);
    expect(totalBytes).toBeLessThan(40_000); // the 560 KB build log is not in the stream

    const buildDone = parsed.find((e) => e.event === 'complete' && e.data.toolCallId === 'call_1');
    expect(buildDone?.data.artifact).toMatchObject({
      byteLength: Buffer.byteLength(logText),
      lineCount: 40_000,
      head: ['line 1 é\r', 'line 2 é\r', 'line 3 é\r'],
    });
    expect(buildDone?.data.ui.telemetry.exitCode).toBe(2);
    const viewer = await fetch(buildDone?.data.artifact.url);
    expect(viewer.status).toBe(200);
    expect(await viewer.text()).toContain('1:line 1 é');
    const unsigned = await fetch(`${artifacts}/artifacts/${buildDone?.data.artifact.ref}/view`);
    expect(unsigned.status).toBe(403);

    const failDone = parsed.find((e) => e.event === 'complete' && e.data.toolCallId === 'call_2');
    expect(failDone?.data).toMatchObject({ isError: true, error: { code: 'E_TOOL_FAILED' } });

    const chartDone = parsed.find((e) => e.event === 'complete' && e.data.toolCallId === 'call_3');
    expect(chartDone?.data.media).toMatchObject({
      mediaType: 'image/png',
      name: 'c.png',
      byteLength: solidPng(4, 4, [200, 30, 40]).length,
    });
    const image = await fetch(chartDone?.data.media.url);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await image.arrayBuffer())).toEqual(
      Buffer.from(solidPng(4, 4, [200, 30, 40])),
    );
  });

  it('stops when the client leaves, with the session still running', async () => {
    const queue = new ToolEventQueue();
    let finished!: () => void;
    const done = new Promise<void>((resolve) => {
      finished = resolve;
    });
    const origin = await listen((_request, response) => {
      void streamToolEvents(response, queue, { heartbeatMs: 0 }).then(finished);
    });
    const controller = new AbortController();
    const reading = readEventStream(`${origin}/events`, { count: 1, signal: controller.signal });
    queue.push({ type: 'start', toolCallId: 'a', toolName: 't' });
    const { events } = await reading;
    expect(events[0]?.event).toBe('start');
    controller.abort();
    await done; // ended without another event or close() of the queue
  });
});
