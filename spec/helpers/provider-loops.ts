// The agent loops a user writes with each provider adapter and the real client, shared by the
// provider specs: dispatch, request, ack, run the calls, until the model answers in text.
import type Anthropic from '@anthropic-ai/sdk';
import type { Content, GoogleGenAI } from '@google/genai';
import type OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ResponseInput } from 'openai/resources/responses/responses';
import type { DispatchContext } from 'spoolforge';
import type { AnthropicToolSession } from 'spoolforge/anthropic';
import type { GoogleDispatch, GoogleToolSession } from 'spoolforge/google';
import type { OpenAIToolSession } from 'spoolforge/openai';

/** One request of a conversation: its dispatch and the names of the tools it offered. */
export interface LoopTurn {
  dispatch: DispatchContext;
  offered: string[];
}

/** A Chat Completions conversation from `prompt`; fails if no answer comes in `maxTurns`. */
export async function converseChatCompletions(
  client: OpenAI,
  loop: OpenAIToolSession,
  prompt: string,
  maxTurns = 8,
): Promise<{ answer: string; turns: LoopTurn[] }> {
  const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: prompt }];
  const turns: LoopTurn[] = [];
  for (let step = 0; step < maxTurns; step++) {
    const turn = loop.chatCompletionsDispatch();
    turns.push({ dispatch: turn.context, offered: turn.tools.map((tool) => tool.function.name) });
    const completion = await client.chat.completions.create({
      model: 'scripted',
      messages,
      tools: turn.tools,
    });
    turn.ack();
    const message = completion.choices[0]?.message;
    if (!message) throw new Error('no choice');
    messages.push(message);
    if (!message.tool_calls?.length) return { answer: message.content ?? '', turns };
    messages.push(...(await turn.run(message.tool_calls)));
  }
  throw new Error(`no answer in ${maxTurns} turns`);
}

/** A Responses conversation from `prompt`; fails if no answer comes in `maxTurns`. */
export async function converseResponses(
  client: OpenAI,
  loop: OpenAIToolSession,
  prompt: string,
  maxTurns = 8,
): Promise<{ answer: string; turns: LoopTurn[] }> {
  const input: ResponseInput = [{ role: 'user', content: prompt }];
  const turns: LoopTurn[] = [];
  for (let step = 0; step < maxTurns; step++) {
    const turn = loop.responsesDispatch();
    turns.push({ dispatch: turn.context, offered: turn.tools.map((tool) => tool.name) });
    const response = await client.responses.create({ model: 'scripted', input, tools: turn.tools });
    turn.ack();
    const calls = response.output.filter((item) => item.type === 'function_call');
    if (calls.length === 0) return { answer: response.output_text, turns };
    input.push(...calls, ...(await turn.run(response.output)));
  }
  throw new Error(`no answer in ${maxTurns} turns`);
}

/** An Anthropic Messages conversation from `prompt`; fails if no answer comes in `maxTurns`. */
export async function converseAnthropic(
  agent: AnthropicToolSession,
  client: Anthropic,
  prompt: string,
  maxTurns = 10,
) {
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: prompt }];
  const dispatches = [];
  for (let turn = 0; turn < maxTurns; turn++) {
    const dispatch = agent.dispatch();
    dispatches.push(dispatch);
    const message = await client.messages.create({
      model: 'claude-scripted',
      max_tokens: 1024,
      messages,
      tools: dispatch.tools,
    });
    dispatch.ack();
    messages.push({ role: 'assistant', content: message.content });
    const results = await dispatch.run(message.content);
    if (results.length === 0) return { message, dispatches };
    messages.push({ role: 'user', content: results });
  }
  throw new Error('the scripted model never answered');
}

/** A Gemini conversation from `prompt` (generateContent); fails if no answer comes in `maxTurns`. */
export async function converseGoogle(
  agent: GoogleToolSession,
  ai: GoogleGenAI,
  prompt: string,
  maxTurns = 10,
) {
  const contents: Content[] = [{ role: 'user', parts: [{ text: prompt }] }];
  const dispatches: GoogleDispatch[] = [];
  for (let turn = 0; turn < maxTurns; turn++) {
    const dispatch = agent.dispatch();
    dispatches.push(dispatch);
    const response = await dispatch.track(
      ai.models.generateContent({
        model: 'gemini-2.5-flash',
        contents,
        config: { tools: dispatch.tools },
      }),
    );
    const content = response.candidates?.[0]?.content;
    const parts = await dispatch.run(content);
    if (!content || parts.length === 0) return { response, dispatches };
    contents.push(content, { role: 'user', parts });
  }
  throw new Error('the scripted model never answered');
}
