// A conversation whose every turn records a model call, for the model-call specs of each
// backend: a user question, a spooled tool output's handle, an answer; the request is what a
// Chat Completions client would send, rendered by a format of the spec's own.
import {
  type ConversationLog,
  type ConversationMessage,
  type MessageFormat,
  type ProjectContextOptions,
  projectContext,
} from 'spoolforge';

/** Renders messages as they are, with the instructions first: a format as a user would write one. */
export const plainFormat: MessageFormat<{ instructions: string }> = {
  name: 'spec.plain',
  key: 'messages',
  render: (messages, options) => [{ role: 'system', content: options.instructions }, ...messages],
};

export const instructions = `You investigate build failures. ${'Be precise. '.repeat(20)}`;

/** Tools whose JSON passes the interning threshold, with the odd shapes a request may hold. */
export const tools = [
  {
    type: 'function',
    function: {
      name: 'run_build',
      description: 'Runs the build and returns its full log.',
      parameters: { type: 'object', properties: { target: { type: 'string' } } },
    },
  },
  { $v: 'not a hash', $m: 1, nested: [{ $m: 1 }, { $: 2 }, { $v: 'x' }, 1e21, -0, null] },
];

/** Appends `turns` turns, recording a model call for each; returns the requests sent, as JSON. */
export async function recordTurns(
  log: ConversationLog,
  turns: number,
  options: ProjectContextOptions = { contextBudgetTokens: 1_000 },
): Promise<string[]> {
  const sent: string[] = [];
  for (let turn = 0; turn < turns; turn++) {
    await log.append({ role: 'user', content: `Why did build ${turn} fail?` });
    const call = { id: `call_${log.nextSeq}`, name: 'run_build', arguments: '{"target":"all"}' };
    const handle = `Output stored (64 KiB, 2,000 lines): ${'log line '.repeat(40)}`;
    const toolMessages: ConversationMessage[] = [
      { role: 'assistant', content: '', toolCalls: [call] },
      {
        role: 'tool',
        toolCallId: call.id,
        toolName: 'run_build',
        content: handle,
        ref: `r${turn}`,
      },
    ];
    await log.append(...toolMessages);
    const projection = await projectContext(log.history(), options);
    const request = {
      model: 'build-model',
      messages: plainFormat.render(projection.messages, { instructions }),
      tools,
      temperature: 0,
    };
    await log.modelCalls.record({
      projection,
      request,
      format: plainFormat,
      formatOptions: { instructions },
      startedAt: Date.now() - 5,
      usage: { inputTokens: 100 + turn, outputTokens: 7, totalTokens: 107 + turn },
      ...(options.maxLineChars === undefined
        ? {}
        : { limits: { maxLineChars: options.maxLineChars } }),
    });
    sent.push(JSON.stringify(request));
    await log.append({ role: 'assistant', content: `Build ${turn} ran out of disk.` });
  }
  return sent;
}

/** Every recorded call of `log` read back as JSON. */
export async function readBack(log: ConversationLog, calls: number): Promise<string[]> {
  const read: string[] = [];
  for (let call = 0; call < calls; call++) {
    read.push(JSON.stringify(await log.modelCalls.request(call, { formats: [plainFormat] })));
  }
  return read;
}
