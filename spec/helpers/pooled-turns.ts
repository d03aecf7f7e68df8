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

/** What the model is sent next: the projection of the history, with the tools an OpenAI request offers. */
async function projectWithTools(
  { log, session }: PooledConversation,
  projection: ProjectContextOptions,
) {
  const dispatch = new OpenAIToolSession({ session }).chatCompletionsDispatch();
  const view = await projectContext(log.history(), { ...projection, tools: dispatch.tools });
  return { view, dispatch };
}

/**
 * What the model is sent next: the projection of the history with the tools an OpenAI request
 * offers (the forged `callId` enums included), as JSON.
 */
export async function nextRequest(conversation: PooledConversation): Promise<string> {
  const { view, dispatch } = await projectWithTools(conversation, projectionOptions);
  return JSON.stringify({ view, tools: dispatch.tools });
}

/** Options for {@link scriptedTurn}. */
export interface ScriptedTurnOptions {
  /** The model calls tools on every turn this divides. Default 2. */
  callEvery?: number;
  /** Default {@link projectionOptions}. */
  projection?: ProjectContextOptions;
  /**
   * Project with the tools an OpenAI request offers, and again after compacting, as a server
   * that sends the request does. Default: the history alone.
   */
  withTools?: boolean;
}

/**
 * One turn of the README's long-conversation loop with a scripted model: the user asks, the
 * history is compacted when over budget (the calls summarised away forgotten), and every
 * `callEvery` turns the model calls `fetch_logs` (60 lines) and then `artifact_grep` on the
 * output before. Resolves to whether it compacted.
 */
export async function scriptedTurn(
  conversation: PooledConversation,
  turn: number,
  options: ScriptedTurnOptions = {},
): Promise<boolean> {
  const { log, session } = conversation;
  const { callEvery = 2, projection = projectionOptions, withTools = false } = options;
  await log.append({ role: 'user', content: `Turn ${turn}: what failed in checkout?` });
  const project = async () =>
    withTools
      ? projectWithTools(conversation, projection)
      : { view: await projectContext(log.history(), projection), dispatch: undefined };
  let { view, dispatch } = await project();
  if (view.overBudget) {
    await compactLog(log, { ...projection, summarise });
    const gone = session.toolCalls.filter(({ id }) => !log.toolMessage(id));
    await session.forget(gone.map(({ id }) => id));
    if (withTools) ({ dispatch } = await project());
  }
  dispatch?.ack();
  if (turn % callEvery === 0) {
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
    const results = session.dispatch();
    results.ack();
    await log.appendToolOutcomes(await session.run(calls, results));
  }
  await log.append({ role: 'assistant', content: `Turn ${turn}: the payment gateway timed out.` });
  return view.overBudget;
}
