import {
  compactLog,
  defineTool,
  type PooledConversation,
  type ProjectContextOptions,
  projectContext,
  type Summariser,
} from 'spoolforge';
import { OpenAIToolSession } from 'spoolforge/openai';
import { z } from 'zod';

/** A service log of about `lines` × 60 bytes: over the inline threshold, so it is stored. */
export const fetchLogs = defineTool({
  name: 'fetch_logs',
  description: "Returns a service's log.",
  inputSchema: z.object({ turn: z.number(), lines: z.number() }),
  handler: ({ turn, lines }) =>
    Array.from(
      { length: lines },
      (_, line) => `2026-11-22T10:00:00Z INFO turn=${turn} request=${line} GET /api/cart 200\n`,
    ).join(''),
});

/** A small budget, so a few dozen turns trim outputs and compact. */
export const projectionOptions: ProjectContextOptions = {
  contextBudgetTokens: 3_000,
  instructions: 'You are an on-call assistant.',
};

/** A deterministic summariser that names the latest refs, as a model is asked to. */
export const summarise: Summariser = async (messages) => {
  const refs = messages.flatMap((message) =>
    message.role === 'tool' && message.ref ? [message.ref] : [],
  );
  return `<retain>refs: ${refs.slice(-3).join(', ')}</retain><summary>${messages.length} messages about checkout.</summary>`;
};

/**
 * What the model is sent next: the projection of the history with the tools an OpenAI request
 * offers (the forged `callId` enums included), as JSON.
 */
export async function nextRequest({ log, session }: PooledConversation): Promise<string> {
  const dispatch = new OpenAIToolSession({ session }).chatCompletionsDispatch();
  const view = await projectContext(log.history(), { ...projectionOptions, tools: dispatch.tools });
  return JSON.stringify({ view, tools: dispatch.tools });
}

/**
 * One turn of the README's long-conversation loop with a scripted model: the user asks, the
 * history is compacted when over budget (the calls summarised away forgotten), and every other
 * turn the model calls `fetch_logs` and then `artifact_grep` on an earlier output.
 */
export async function scriptedTurn({ log, session }: PooledConversation, turn: number) {
  await log.append({ role: 'user', content: `Turn ${turn}: what failed in checkout?` });
  const view = await projectContext(log.history(), projectionOptions);
  if (view.overBudget) {
    await compactLog(log, { ...projectionOptions, summarise });
    const gone = session.toolCalls.filter(({ id }) => !log.toolMessage(id));
    await session.forget(gone.map(({ id }) => id));
  }
  if (turn % 2 === 0) {
    const offered = session.toolCalls.filter((call) => call.name === 'fetch_logs').at(-1);
    const calls = [
      { id: `call_${turn}`, name: 'fetch_logs', arguments: JSON.stringify({ turn, lines: 60 }) },
      ...(offered
        ? [
            {
              id: `grep_${turn}`,
              name: 'artifact_grep',
              arguments: JSON.stringify({ callId: offered.id, pattern: 'request=59 ' }),
            },
          ]
        : []),
    ];
    await log.append({ role: 'assistant', content: '', toolCalls: calls });
    const dispatch = session.dispatch();
    dispatch.ack();
    await log.appendToolOutcomes(await session.run(calls, dispatch));
  }
  await log.append({ role: 'assistant', content: `Turn ${turn}: the payment gateway timed out.` });
}
